/**
 * What an approved job becomes (decisions 0512–0516), on its review screen: the exports, each
 * downloadable with its size or with the reason it could not be made; publishing into a course
 * the user teaches; and sending the package links to the organization's learning system, with
 * this job's delivery log.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Download, FileArchive, Loader2, Send } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import type { AdaptJobDetail } from './api/adapt-jobs';
import type { ExportFormat, ListedExport } from '@common/adapt-outputs';
import {
  downloadExport,
  useDeliverJob,
  useExports,
  usePublishJob,
  useRequestExports,
  useTeachableCourses,
} from './api/adapt-outputs';
import { adminWorkspace, formatSize, formatWhen } from './adapt-labels';
import { DeliveryLog } from './delivery-log';

const FORMAT_DESCRIPTIONS: Record<ExportFormat, { label: string; detail: string }> = {
  html: {
    label: 'Accessible HTML',
    detail: 'One page with read-along: the sentence being spoken is highlighted.',
  },
  'html-translation': { label: 'Translated HTML', detail: 'The lesson in the chosen language.' },
  mp3: { label: 'MP3 narration', detail: 'The lesson read aloud offline, with sentence timings.' },
  'scorm-1.2': { label: 'SCORM 1.2 package', detail: 'For learning systems that take SCORM 1.2.' },
  'scorm-2004': {
    label: 'SCORM 2004 package',
    detail: 'For learning systems that take SCORM 2004 (4th edition).',
  },
  'scorm-json': {
    label: 'SCORM JSON',
    detail: 'The package as one JSON document (lyceum.scorm-json/1) for import by API.',
  },
  markdown: { label: 'Markdown', detail: 'Objectives, sections, glossary, quiz and answers.' },
};

/** The order people look for them in. */
const FORMAT_ORDER: ExportFormat[] = [
  'html',
  'html-translation',
  'mp3',
  'scorm-1.2',
  'scorm-2004',
  'scorm-json',
  'markdown',
];

export function JobOutputs({ job }: { job: AdaptJobDetail }) {
  return (
    <>
      <Exports jobId={job.id} />
      <Publish job={job} />
      {job.organization_id !== null && <Deliver job={job} />}
    </>
  );
}

function Exports({ jobId }: { jobId: string }) {
  const listing = useExports(jobId, true);
  const request = useRequestExports(jobId);
  const running = listing.data?.status === 'queued' || listing.data?.status === 'running';

  function prepare() {
    request.mutate(undefined, {
      onSuccess: () => toast.success('The exports are being made.'),
      onError: (e) => toast.error(e.message),
    });
  }

  return (
    <Section
      title="Exports"
      id="exports"
      description="The approved lesson in every format, made on the server and kept for download."
    >
      {listing.isPending ? (
        <LoadingBlock label="Loading the exports…" />
      ) : listing.isError ? (
        <LoadError
          message={`Could not load the exports: ${listing.error.message}`}
          onRetry={() => void listing.refetch()}
        />
      ) : (
        <div className="grid gap-3">
          <p className="text-sm" aria-live="polite">
            {listing.data.status === 'none'
              ? 'No exports have been made yet.'
              : running
                ? 'Making the exports: the narration takes longest.'
                : listing.data.status === 'failed'
                  ? 'The last export run failed.'
                  : `Made ${listing.data.finishedAt ? formatWhen(listing.data.finishedAt) : ''}${
                      listing.data.audioSeconds !== null
                        ? `; ${Math.round(listing.data.audioSeconds)} s of narration${
                            listing.data.narrationVoice
                              ? ` by the ${listing.data.narrationVoice} voice`
                              : ''
                          }`
                        : ''
                    }.`}
          </p>
          {listing.data.status === 'failed' && listing.data.error && (
            <Notice tone="error">The exports could not be made: {listing.data.error}</Notice>
          )}
          {listing.data.status === 'done' && (
            <ExportFiles jobId={jobId} files={listing.data.files} />
          )}
          <div>
            <Button
              onClick={prepare}
              disabled={request.isPending || running}
              variant={listing.data.status === 'done' ? 'outline' : 'default'}
            >
              {running ? (
                <Loader2 aria-hidden="true" className="animate-spin motion-reduce:animate-none" />
              ) : (
                <FileArchive aria-hidden="true" />
              )}
              {running
                ? 'Making the exports…'
                : listing.data.status === 'none'
                  ? 'Prepare exports'
                  : 'Prepare the exports again'}
            </Button>
          </div>
        </div>
      )}
    </Section>
  );
}

function ExportFiles({ jobId, files }: { jobId: string; files: ListedExport[] }) {
  const [downloading, setDownloading] = useState<string | null>(null);
  const sorted = [...files].sort(
    (a, b) => FORMAT_ORDER.indexOf(a.format) - FORMAT_ORDER.indexOf(b.format),
  );

  async function download(name: string) {
    setDownloading(name);
    try {
      await downloadExport(jobId, name);
    } catch (error) {
      toast.error((error as Error).message);
    } finally {
      setDownloading(null);
    }
  }

  return (
    <ul className="grid gap-2" aria-label="Export files">
      {sorted.map((file) => {
        const { label, detail } = FORMAT_DESCRIPTIONS[file.format];
        return (
          <li
            key={file.name}
            className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3 text-sm"
          >
            <div className="min-w-0">
              <p className="font-medium">
                {label}{' '}
                <span className="font-normal text-muted-foreground">
                  {file.name}
                  {file.bytes !== null ? `, ${formatSize(file.bytes)}` : ''}
                </span>
              </p>
              {file.error === null ? (
                <p className="text-muted-foreground">{detail}</p>
              ) : (
                <p className="text-destructive">{file.error}</p>
              )}
            </div>
            {file.error === null && (
              <Button
                size="sm"
                variant="outline"
                disabled={downloading !== null}
                aria-label={`Download ${label} (${file.name}, ${formatSize(file.bytes)})`}
                onClick={() => void download(file.name)}
              >
                <Download aria-hidden="true" />
                {downloading === file.name ? 'Downloading…' : 'Download'}
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Publish({ job }: { job: AdaptJobDetail }) {
  const courses = useTeachableCourses(job.organization_id);
  const publish = usePublishJob(job.id);
  const [courseId, setCourseId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [published, setPublished] = useState<{ path: string; title: string } | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (!courseId) return setError('Choose the course to publish into.');
    publish.mutate(courseId, {
      onSuccess: (publication) => {
        const title = courses.data?.find((c) => c.id === courseId)?.title ?? 'the course';
        setPublished({
          path: `/app/courses/${publication.course_id}/lessons/${publication.lesson_id}`,
          title,
        });
        toast.success(`Published into ${title} with ${publication.questions} bank questions.`);
      },
      onError: (e) => setError(e.message),
    });
  }

  return (
    <Section
      title="Publish to a course"
      id="publish"
      description={`The lesson joins the course's "Adapted with LE Adapt" module, and its quiz becomes bank questions.`}
    >
      {courses.isPending ? (
        <LoadingBlock label="Loading your courses…" />
      ) : courses.isError ? (
        <LoadError
          message={`Could not load your courses: ${courses.error.message}`}
          onRetry={() => void courses.refetch()}
        />
      ) : courses.data.length === 0 ? (
        <EmptyState>
          You teach no course in this workspace yet, so there is nowhere to publish.{' '}
          <Link className="underline" to="/app/course-editor/new">
            Create a course
          </Link>{' '}
          first.
        </EmptyState>
      ) : (
        <form className="grid max-w-lg gap-3" noValidate onSubmit={submit}>
          <SelectField
            label="Course"
            value={courseId}
            onChange={(e) => setCourseId(e.target.value)}
            error={error ?? undefined}
          >
            <option value="">Choose a course</option>
            {courses.data.map((course) => (
              <option key={course.id} value={course.id}>
                {course.title}
              </option>
            ))}
          </SelectField>
          <div>
            <Button type="submit" disabled={publish.isPending}>
              {publish.isPending ? 'Publishing…' : 'Publish lesson'}
            </Button>
          </div>
          {published && (
            <Notice tone="success">
              Published into {published.title}.{' '}
              <Link className="underline" to={published.path}>
                Open the lesson
              </Link>
            </Notice>
          )}
        </form>
      )}
    </Section>
  );
}

function Deliver({ job }: { job: AdaptJobDetail }) {
  const { workspace } = useAppSession();
  const deliver = useDeliverJob(job.id);
  const admin = adminWorkspace(workspace)?.organizationId === job.organization_id;
  return (
    <Section
      title="Send to the learning system"
      id="deliver"
      description="A signed webhook with links to the SCORM packages and the other exports, to the endpoint the organization's Admins set."
    >
      <div className="grid gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <Button
            disabled={deliver.isPending}
            onClick={() =>
              deliver.mutate(undefined, {
                onSuccess: () => toast.success('The delivery is on its way.'),
                onError: (e) => toast.error(e.message),
              })
            }
          >
            <Send aria-hidden="true" />
            Send to learning system
          </Button>
          {admin && (
            <Link
              to="/app/adapt?view=webhooks"
              className="text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              Webhook settings
            </Link>
          )}
        </div>
        <h3 className="text-sm font-semibold">Deliveries of this lesson</h3>
        <DeliveryLog
          scope={{ jobId: job.id }}
          canRedeliver={admin}
          label="Deliveries of this lesson"
        />
      </div>
    </Section>
  );
}
