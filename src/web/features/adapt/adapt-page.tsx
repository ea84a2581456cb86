/**
 * LE Adapt at /app/adapt (issue 14): upload course material (or type a course prompt) with
 * the learner profile, reading level and translation, and the searchable archive of past jobs.
 */
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Loader2, Upload, Webhook } from 'lucide-react';
import { toast } from 'sonner';
import {
  LEARNER_PROFILE_LABELS,
  LEARNER_PROFILES,
  type LearnerProfile,
} from '@common/adapt-lesson';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field, SelectField } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import {
  useArchive,
  useCreateJob,
  type ArchiveFilters,
  type JobStatus,
  type SourceFormat,
} from './api/adapt-jobs';
import {
  adminWorkspace,
  formatLabels,
  languageOptions,
  profileHints,
  readingLevelLabel,
  StatusBadge,
} from './adapt-labels';

// The webhook settings open inside this route (`?view=webhooks`) rather than as a route of their
// own: every entry of the route table weighs on the public site's first load.
const WebhooksPage = lazy(() =>
  import('./webhooks-page').then((m) => ({ default: m.AdaptWebhooksPage })),
);

export function AdaptPage() {
  const [params] = useSearchParams();
  if (params.get('view') === 'webhooks') {
    return (
      <Suspense fallback={<LoadingBlock label="Loading the webhook settings…" />}>
        <WebhooksPage />
      </Suspense>
    );
  }
  return <AdaptHome />;
}

function AdaptHome() {
  const { workspace } = useAppSession();
  const admin = adminWorkspace(workspace) !== null;
  return (
    <AppPage
      title="LE Adapt"
      intro="Turn course material into an accessible lesson with objectives, a glossary and a quiz. Each job runs in stages you can follow, review and approve."
      actions={
        admin ? (
          <Button asChild variant="outline">
            <Link to="/app/adapt?view=webhooks">
              <Webhook aria-hidden="true" />
              Webhook settings
            </Link>
          </Button>
        ) : undefined
      }
      wide
    >
      <UploadForm />
      <Archive />
    </AppPage>
  );
}

const MAX_BYTES = 50 * 1024 * 1024;

function UploadForm() {
  const { workspace } = useAppSession();
  const navigate = useNavigate();
  const create = useCreateJob();
  const [source, setSource] = useState<'file' | 'prompt'>('file');
  const [file, setFile] = useState<File | null>(null);
  const [prompt, setPrompt] = useState('');
  const [title, setTitle] = useState('');
  const [profile, setProfile] = useState<LearnerProfile>('none');
  const [readingLevel, setReadingLevel] = useState(8);
  const [language, setLanguage] = useState('en');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (source === 'file' && !file) return setError('Choose a file to adapt.');
    if (source === 'prompt' && prompt.trim().length < 10)
      return setError('Describe the course in at least 10 characters.');
    create.mutate(
      {
        organizationId: workspace.kind === 'organization' ? workspace.organizationId : null,
        title,
        readingLevel,
        learnerProfile: profile,
        language,
        file: source === 'file' ? file : null,
        prompt,
      },
      {
        onSuccess: (job) => {
          toast.success(`"${job.title}" is queued.`);
          void navigate(`/app/adapt/${job.id}`);
        },
        onError: (failure) => setError(failure.message),
      },
    );
  }

  return (
    <Section
      title="New job"
      id="new-job"
      description={
        workspace.kind === 'organization'
          ? `For ${workspace.organizationName}: its instructors and admins can follow and review it.`
          : 'A personal job: only you see it.'
      }
    >
      <form noValidate onSubmit={submit} className="grid gap-4" aria-label="New LE Adapt job">
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Source</legend>
          <div className="flex flex-wrap gap-4">
            {(['file', 'prompt'] as const).map((kind) => (
              <label key={kind} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="source"
                  value={kind}
                  checked={source === kind}
                  onChange={() => setSource(kind)}
                  className="size-4 accent-primary"
                />
                {kind === 'file' ? 'Upload a file' : 'Type a course prompt'}
              </label>
            ))}
          </div>
        </fieldset>
        {source === 'file' ? (
          <div className="grid gap-2">
            <Label htmlFor="adapt-file">File</Label>
            <input
              id="adapt-file"
              type="file"
              accept=".pdf,.docx,.txt,.md,.zip"
              aria-describedby="adapt-file-hint"
              onChange={(event) => {
                const chosen = event.target.files?.[0] ?? null;
                setFile(chosen);
                if (chosen && chosen.size > MAX_BYTES) {
                  setError(`"${chosen.name}" is over 50 MB; the job will say so if you upload it.`);
                } else setError(null);
              }}
              className="block w-full rounded-md border border-border bg-background p-2 text-sm file:mr-3 file:rounded file:border-0 file:bg-secondary file:px-3 file:py-1 file:text-sm focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            />
            <p id="adapt-file-hint" className="text-sm text-muted-foreground">
              PDF with selectable text, Word (DOCX), plain text, or a SCORM 1.2 or 2004 package
              (.zip); up to 50 MB.
            </p>
          </div>
        ) : (
          <div className="grid gap-2">
            <Label htmlFor="adapt-prompt">Course prompt</Label>
            <Textarea
              id="adapt-prompt"
              value={prompt}
              maxLength={4000}
              rows={3}
              aria-describedby="adapt-prompt-hint"
              onChange={(event) => setPrompt(event.target.value)}
            />
            <p id="adapt-prompt-hint" className="text-sm text-muted-foreground">
              With a model configured it writes the course text; without one, LE Adapt assembles the
              lesson from matching material in the course library you can read, and says so.
            </p>
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Title (optional)"
            value={title}
            maxLength={300}
            onChange={(event) => setTitle(event.target.value)}
            hint="The file's name when left empty."
          />
          <SelectField
            label="Learner profile"
            value={profile}
            onChange={(event) => setProfile(event.target.value as LearnerProfile)}
            hint={profileHints[profile]}
          >
            {LEARNER_PROFILES.map((p) => (
              <option key={p} value={p}>
                {LEARNER_PROFILE_LABELS[p]}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Reading level"
            value={readingLevel}
            onChange={(event) => setReadingLevel(Number(event.target.value))}
            hint="Sentences and words are simplified towards this grade, measured before and after."
          >
            {Array.from({ length: 12 }, (_, i) => i + 3).map((grade) => (
              <option key={grade} value={grade}>
                {readingLevelLabel(grade)}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Translate into"
            value={language}
            onChange={(event) => setLanguage(event.target.value)}
            hint="Apertium when its language pair is installed, else the configured model."
          >
            {languageOptions.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </SelectField>
        </div>
        {error && <Notice tone="error">{error}</Notice>}
        <div>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? (
              <Loader2 aria-hidden="true" className="animate-spin motion-reduce:animate-none" />
            ) : (
              <Upload aria-hidden="true" />
            )}
            Start job
          </Button>
        </div>
      </form>
    </Section>
  );
}

const statusOptions: Array<[JobStatus | 'all', string]> = [
  ['all', 'Any status'],
  ['queued', 'Queued'],
  ['running', 'Running'],
  ['done', 'Done'],
  ['failed', 'Failed'],
  ['cancelled', 'Cancelled'],
];

function Archive() {
  const [draft, setDraft] = useState('');
  const [filters, setFilters] = useState<ArchiveFilters>({
    search: '',
    status: 'all',
    format: 'all',
    approval: 'all',
  });
  const archive = useArchive(filters);
  return (
    <Section
      title="Archive"
      id="archive"
      description="Past jobs you may see, searched by their title, file name and text."
    >
      <form
        role="search"
        aria-label="Search the archive"
        className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_1fr_auto] sm:items-end"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters((f) => ({ ...f, search: draft }));
        }}
      >
        <Field
          label="Words"
          type="search"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <SelectField
          label="Status"
          value={filters.status}
          onChange={(e) =>
            setFilters((f) => ({ ...f, status: e.target.value as JobStatus | 'all' }))
          }
        >
          {statusOptions.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Source"
          value={filters.format}
          onChange={(e) =>
            setFilters((f) => ({ ...f, format: e.target.value as SourceFormat | 'all' }))
          }
        >
          <option value="all">Any source</option>
          {(Object.keys(formatLabels) as SourceFormat[]).map((format) => (
            <option key={format} value={format}>
              {formatLabels[format]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Approval"
          value={filters.approval}
          onChange={(e) =>
            setFilters((f) => ({ ...f, approval: e.target.value as ArchiveFilters['approval'] }))
          }
        >
          <option value="all">Any</option>
          <option value="approved">Approved</option>
          <option value="awaiting">Awaiting approval</option>
        </SelectField>
        <Button type="submit" variant="outline">
          Search
        </Button>
      </form>
      <div className="mt-4">
        {archive.isPending ? (
          <LoadingBlock label="Loading the archive…" />
        ) : archive.isError ? (
          <LoadError
            message={`Could not load the archive: ${archive.error.message}`}
            onRetry={() => void archive.refetch()}
          />
        ) : archive.data.length === 0 ? (
          <EmptyState>No job matches.</EmptyState>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Jobs">
            {archive.data.map((job) => (
              <li key={job.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
                <div className="min-w-0">
                  <Link
                    to={`/app/adapt/${job.id}`}
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {job.title}
                  </Link>
                  <p className="text-sm text-muted-foreground">
                    {formatLabels[job.source_format]}
                    {job.source_name ? ` · ${job.source_name}` : ''} ·{' '}
                    {LEARNER_PROFILE_LABELS[job.learner_profile]} ·{' '}
                    {new Date(job.created_at).toLocaleString('en-GB')}
                  </p>
                </div>
                <div className="flex gap-2">
                  <StatusBadge status={job.status} />
                  {job.approved_at && <Badge variant="secondary">Approved</Badge>}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}
