/**
 * LE Adapt's data (decisions 0500–0501): jobs and their stages read through REST under
 * row-level security, polled while a job runs; every change through /functions/v1/adapt.
 */
import { FunctionsHttpError } from '@supabase/supabase-js';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EngineInfo, LearnerProfile, QuizQuestion, StageName } from '@common/adapt-lesson';
import { getSupabase } from '@/lib/supabase';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
export type SourceFormat = 'pdf' | 'docx' | 'txt' | 'scorm' | 'prompt';

export interface AdaptJob {
  id: string;
  owner_id: string;
  organization_id: string | null;
  title: string;
  source_format: SourceFormat;
  source_name: string | null;
  prompt: string | null;
  reading_level: number;
  learner_profile: LearnerProfile;
  language: string;
  status: JobStatus;
  approved_by: string | null;
  approved_at: string | null;
  approval_note: string | null;
  created_at: string;
}

export interface AdaptStage {
  stage: number;
  name: StageName;
  status: JobStatus;
  error: string | null;
  attempts: number;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  engine: string | null;
  model: string | null;
  output: unknown;
  report: { engine: EngineInfo; durationMs: number; changes: string[] } | null;
}

export interface SectionReview {
  section_id: string;
  state: 'accepted' | 'edited';
  heading: string | null;
  body: string | null;
  reviewed_by: string | null;
  reviewed_at: string;
}

/** A reviewer's edited quiz (decision 0517); absent while the quiz is the generated one. */
export interface QuizReview {
  questions: QuizQuestion[];
  version: number;
  edited_by: string | null;
  edited_at: string;
}

export interface AdaptJobDetail extends AdaptJob {
  adapt_job_stages: AdaptStage[];
  adapt_section_reviews: SectionReview[];
  /** One per job (its key is the job's): the REST API embeds it as an object, as PostgREST does. */
  adapt_quiz_reviews: QuizReview | null;
}

export interface ArchiveFilters {
  search: string;
  status: JobStatus | 'all';
  format: SourceFormat | 'all';
  approval: 'all' | 'approved' | 'awaiting';
}

export const adaptKeys = {
  all: ['adapt'] as const,
  archive: (filters: ArchiveFilters) => ['adapt', 'archive', filters] as const,
  job: (id: string) => ['adapt', 'job', id] as const,
};

export class AdaptRequestError extends Error {
  constructor(
    message: string,
    public readonly status: number,
  ) {
    super(message);
    this.name = 'AdaptRequestError';
  }
}

export async function functionError(error: unknown): Promise<AdaptRequestError> {
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response;
    try {
      const body = (await response.json()) as { error?: string; message?: string };
      return new AdaptRequestError(
        body.error ?? body.message ?? 'The request failed.',
        response.status,
      );
    } catch {
      return new AdaptRequestError(
        `The server answered with HTTP ${response.status}.`,
        response.status,
      );
    }
  }
  return new AdaptRequestError(
    'LE Adapt could not be reached. Check your connection and try again.',
    0,
  );
}

const jobColumns =
  'id, owner_id, organization_id, title, source_format, source_name, prompt, reading_level, learner_profile, language, status, approved_by, approved_at, approval_note, created_at';

export async function getArchive(filters: ArchiveFilters): Promise<AdaptJob[]> {
  const client = await getSupabase();
  let query = client
    .from('adapt_jobs')
    .select(jobColumns)
    .order('created_at', { ascending: false })
    .limit(50);
  if (filters.search.trim() !== '') {
    query = query.textSearch('search', filters.search.trim(), {
      type: 'websearch',
      config: 'english',
    });
  }
  if (filters.status !== 'all') query = query.eq('status', filters.status);
  if (filters.format !== 'all') query = query.eq('source_format', filters.format);
  if (filters.approval === 'approved') query = query.not('approved_at', 'is', null);
  if (filters.approval === 'awaiting') query = query.is('approved_at', null).eq('status', 'done');
  const { data, error } = await query;
  if (error) throw new Error(error.message);
  return data as AdaptJob[];
}

export function useArchive(filters: ArchiveFilters) {
  return useQuery({
    queryKey: adaptKeys.archive(filters),
    queryFn: () => getArchive(filters),
    placeholderData: keepPreviousData,
    // A job still running in the list moves on by itself.
    refetchInterval: (query) =>
      query.state.data?.some((j) => j.status === 'queued' || j.status === 'running') ? 2000 : false,
  });
}

export async function getJob(id: string): Promise<AdaptJobDetail | null> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('adapt_jobs')
    .select(
      `${jobColumns}, adapt_job_stages(*), adapt_section_reviews(*), adapt_quiz_reviews(questions, version, edited_by, edited_at)`,
    )
    .eq('id', id)
    .maybeSingle();
  if (error) throw new Error(error.message);
  if (!data) return null;
  const job = data as unknown as AdaptJobDetail;
  job.adapt_job_stages.sort((a, b) => a.stage - b.stage);
  return job;
}

export const isActive = (status: JobStatus) => status === 'queued' || status === 'running';

/** The job, polled every second while it is queued or running (the stages' live progress). */
export function useJob(id: string) {
  return useQuery({
    queryKey: adaptKeys.job(id),
    queryFn: () => getJob(id),
    refetchInterval: (query) =>
      query.state.data && isActive(query.state.data.status) ? 1000 : false,
  });
}

export interface CreateJobInput {
  organizationId: string | null;
  title: string;
  readingLevel: number;
  learnerProfile: LearnerProfile;
  language: string;
  file: File | null;
  prompt: string;
}

export function useCreateJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateJobInput): Promise<AdaptJob> => {
      const client = await getSupabase();
      const form = new FormData();
      if (input.file) form.append('file', input.file, input.file.name);
      else form.append('prompt', input.prompt);
      if (input.organizationId) form.append('organizationId', input.organizationId);
      form.append('title', input.title);
      form.append('readingLevel', String(input.readingLevel));
      form.append('learnerProfile', input.learnerProfile);
      form.append('language', input.language);
      const { data, error } = await client.functions.invoke<AdaptJob>('adapt/jobs', { body: form });
      if (error) throw await functionError(error);
      return data!;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adaptKeys.all }),
  });
}

function useJobAction<Input>(
  jobId: string,
  request: (input: Input) => { path: string; method: 'POST' | 'PUT'; body: object },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Input) => {
      const client = await getSupabase();
      const { path, method, body } = request(input);
      const { data, error } = await client.functions.invoke(`adapt/jobs/${jobId}/${path}`, {
        method,
        body,
      });
      if (error) throw await functionError(error);
      return data as unknown;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adaptKeys.all }),
  });
}

export const useRetryJob = (jobId: string) =>
  useJobAction<void>(jobId, () => ({ path: 'retry', method: 'POST', body: {} }));

export const useCancelJob = (jobId: string) =>
  useJobAction<void>(jobId, () => ({ path: 'cancel', method: 'POST', body: {} }));

export const useApproveJob = (jobId: string) =>
  useJobAction<{ note: string }>(jobId, ({ note }) => ({
    path: 'approve',
    method: 'POST',
    body: { note: note.trim() === '' ? null : note },
  }));

export const useReviewSection = (jobId: string) =>
  useJobAction<
    | { sectionId: string; state: 'accepted' }
    | { sectionId: string; state: 'edited'; heading: string; body: string }
  >(jobId, ({ sectionId, ...review }) => ({
    path: `sections/${encodeURIComponent(sectionId)}`,
    method: 'PUT',
    body: review,
  }));
