/**
 * The org admin's enrolments: one person in a course, a whole board in a course distributed
 * to it, many from a CSV file (all or nothing, with a report per wrong line, decision 0130),
 * and the list of enrolments searched and paged on the server, with unenrolling.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { FileCheck2, Search, Upload } from 'lucide-react';
import { toast } from 'sonner';
import { z } from 'zod';
import {
  ENROLMENTS_PAGE_SIZE,
  enrolmentQuerySchema,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  searchTextSchema,
  type EnrolmentQuery,
  type ImportReport,
  type OrgEnrolment,
} from '@common/org-people';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Pager } from '@/components/ui/pager';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import {
  useBoards,
  useCourses,
  type AdminBoard,
  type AdminCourse,
} from './api/get-boards-and-courses';
import {
  useEnrolBoard,
  useEnrolments,
  useEnrolOne,
  useImportEnrolments,
  useUnenrol,
} from './api/enrolments';
import {
  adminBoardIds,
  AdminOnly,
  FieldError,
  NativeSelect,
  pageFrom,
  plural,
  scopeName,
  type AdminWorkspace,
} from './admin-ui';
import { ConfirmDialog } from './user-dialogs';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

export function EnrolmentsPage() {
  return (
    <AdminOnly title="Enrolments">{(workspace) => <Enrolments workspace={workspace} />}</AdminOnly>
  );
}

function Enrolments({ workspace }: { workspace: AdminWorkspace }) {
  const boards = useBoards(workspace.organizationId, adminBoardIds(workspace));
  const courses = useCourses(workspace.organizationId, adminBoardIds(workspace));
  return (
    <AppPage
      wide
      title="Enrolments"
      intro={`Enrol the people of ${scopeName(workspace)} in ${workspace.boardAdminOnly ? 'the courses distributed to them' : 'its courses'}: one at a time, a whole board, or many from a CSV file.`}
    >
      {courses.isError ? (
        <LoadError
          message={`Could not load the courses: ${courses.error.message}`}
          onRetry={() => void courses.refetch()}
        />
      ) : courses.data && courses.data.length === 0 ? (
        <EmptyState>
          {workspace.boardAdminOnly
            ? `No course is distributed to ${scopeName(workspace)} yet. The organization's owner distributes courses to boards; then you can enrol people here.`
            : `${workspace.organizationName} has no course yet. An instructor or admin creates one; then you can enrol people here.`}
        </EmptyState>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          <EnrolOne workspace={workspace} courses={courses.data ?? []} />
          <EnrolBoard
            workspace={workspace}
            courses={courses.data ?? []}
            boards={boards.data ?? []}
          />
        </div>
      )}
      <ImportCsv workspace={workspace} />
      <EnrolmentList workspace={workspace} courses={courses.data ?? []} />
    </AppPage>
  );
}

function courseLabel(course: AdminCourse): string {
  return course.published ? course.title : `${course.title} (not published)`;
}

const enrolOneSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter the person’s email.')
    .max(254, 'At most 254 characters.')
    .pipe(z.email({ error: 'Enter an email address such as name@example.edu.' })),
  courseId: z.string().min(1, 'Choose a course.'),
});

function EnrolOne({ workspace, courses }: { workspace: AdminWorkspace; courses: AdminCourse[] }) {
  const enrol = useEnrolOne(workspace.organizationId);
  const [email, setEmail] = useState('');
  const [courseId, setCourseId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const emailId = useId();
  const courseSelectId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = enrolOneSchema.safeParse({ email, courseId });
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      setErrors(fields);
      return;
    }
    setErrors({});
    enrol.mutate(parsed.data, {
      onSuccess: (report) => {
        const problem = report.problems[0]?.problems.join(' ');
        if (problem) {
          setErrors({ form: problem });
          return;
        }
        const title = courses.find((c) => c.id === parsed.data.courseId)?.title ?? 'the course';
        toast.success(
          report.alreadyEnrolled > 0
            ? `${parsed.data.email} was already enrolled in ${title}.`
            : `${parsed.data.email} is enrolled in ${title}.`,
        );
        setEmail('');
      },
      onError: (error) => setErrors({ form: error.message }),
    });
  }

  return (
    <Section
      title="Enrol one person"
      id="enrol-one"
      description={
        workspace.boardAdminOnly
          ? `A member of ${scopeName(workspace)}, by email, in a course distributed to the board.`
          : 'A member of the organization, by email, in one of its courses.'
      }
    >
      <form className="grid gap-3" onSubmit={submit} noValidate>
        <div className="grid gap-1.5">
          <Label htmlFor={emailId}>Email</Label>
          <Input
            id={emailId}
            type="email"
            value={email}
            maxLength={254}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? `${emailId}-error` : undefined}
          />
          <FieldError id={`${emailId}-error`} message={errors.email} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={courseSelectId}>Course</Label>
          <NativeSelect
            id={courseSelectId}
            value={courseId}
            onChange={(event) => setCourseId(event.target.value)}
            aria-invalid={errors.courseId ? true : undefined}
            aria-describedby={errors.courseId ? `${courseSelectId}-error` : undefined}
          >
            <option value="">Choose a course</option>
            {courses.map((course) => (
              <option key={course.id} value={course.id}>
                {courseLabel(course)}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={`${courseSelectId}-error`} message={errors.courseId} />
        </div>
        {errors.form && <Notice tone="error">{errors.form}</Notice>}
        <div>
          <Button type="submit" disabled={enrol.isPending}>
            {enrol.isPending ? 'Enrolling…' : 'Enrol'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function EnrolBoard({
  workspace,
  courses,
  boards,
}: {
  workspace: AdminWorkspace;
  courses: AdminCourse[];
  boards: AdminBoard[];
}) {
  const enrol = useEnrolBoard(workspace.organizationId);
  const [boardId, setBoardId] = useState(workspace.boardId ?? workspace.adminBoards?.[0]?.id ?? '');
  const [courseId, setCourseId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const boardSelectId = useId();
  const courseSelectId = useId();
  const distributed = courses.filter((course) => course.boardIds.includes(boardId));

  function submit(event: FormEvent) {
    event.preventDefault();
    const fields: Record<string, string> = {};
    if (!boardId) fields.boardId = 'Choose a board.';
    if (!courseId || !distributed.some((c) => c.id === courseId))
      fields.courseId = 'Choose a course distributed to this board.';
    setErrors(fields);
    if (Object.keys(fields).length > 0) return;
    enrol.mutate(
      { boardId, courseId },
      {
        onSuccess: (added) => {
          const board = boards.find((b) => b.id === boardId)?.name ?? 'the board';
          const title = courses.find((c) => c.id === courseId)?.title ?? 'the course';
          toast.success(
            added === 0
              ? `Every active student of ${board} was already enrolled in ${title}.`
              : `${plural(added, 'student', 'students')} of ${board} enrolled in ${title}.`,
          );
        },
        onError: (error) => setErrors({ form: error.message }),
      },
    );
  }

  if (boards.length === 0) {
    return (
      <Section title="Enrol a whole board" id="enrol-board">
        <EmptyState>
          {workspace.organizationName} has no boards yet. The owner creates boards (faculties or
          departments); then you can enrol all of a board’s students at once.
        </EmptyState>
      </Section>
    );
  }

  return (
    <Section
      title="Enrol a whole board"
      id="enrol-board"
      description="Every active student of a board, in a course distributed to that board."
    >
      <form className="grid gap-3" onSubmit={submit} noValidate>
        <div className="grid gap-1.5">
          <Label htmlFor={boardSelectId}>Board</Label>
          <NativeSelect
            id={boardSelectId}
            value={boardId}
            onChange={(event) => {
              setBoardId(event.target.value);
              setCourseId('');
            }}
            aria-invalid={errors.boardId ? true : undefined}
            aria-describedby={errors.boardId ? `${boardSelectId}-error` : undefined}
          >
            <option value="">Choose a board</option>
            {boards.map((board) => (
              <option key={board.id} value={board.id}>
                {board.name}
              </option>
            ))}
          </NativeSelect>
          <FieldError id={`${boardSelectId}-error`} message={errors.boardId} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={courseSelectId}>Course distributed to the board</Label>
          <NativeSelect
            id={courseSelectId}
            value={courseId}
            disabled={!boardId || distributed.length === 0}
            onChange={(event) => setCourseId(event.target.value)}
            aria-invalid={errors.courseId ? true : undefined}
            aria-describedby={
              errors.courseId
                ? `${courseSelectId}-error`
                : boardId && distributed.length === 0
                  ? `${courseSelectId}-none`
                  : undefined
            }
          >
            <option value="">Choose a course</option>
            {distributed.map((course) => (
              <option key={course.id} value={course.id}>
                {courseLabel(course)}
              </option>
            ))}
          </NativeSelect>
          {boardId && distributed.length === 0 && (
            <p id={`${courseSelectId}-none`} className="text-sm text-muted-foreground">
              No course is distributed to this board yet; the owner distributes courses to boards.
            </p>
          )}
          <FieldError id={`${courseSelectId}-error`} message={errors.courseId} />
        </div>
        {errors.form && <Notice tone="error">{errors.form}</Notice>}
        <div>
          <Button type="submit" disabled={enrol.isPending}>
            {enrol.isPending ? 'Enrolling the board…' : 'Enrol the board'}
          </Button>
        </div>
      </form>
    </Section>
  );
}

function ImportCsv({ workspace }: { workspace: AdminWorkspace }) {
  const run = useImportEnrolments(workspace.organizationId);
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [pendingKind, setPendingKind] = useState<'check' | 'import' | null>(null);
  const fileId = useId();
  const rulesId = useId();

  async function send(dryRun: boolean) {
    if (!file) {
      setFileError('Choose a CSV file first.');
      return;
    }
    if (file.size > IMPORT_MAX_BYTES) {
      setFileError(
        `The file is ${Math.ceil(file.size / 1024)} KB; import at most ${IMPORT_MAX_BYTES / 1024} KB at a time (split it into several files).`,
      );
      return;
    }
    setFileError(null);
    setPendingKind(dryRun ? 'check' : 'import');
    const text = await file.text();
    run.mutate(
      { csv: text, dryRun },
      {
        onSuccess: (result) => {
          setReport(result);
          if (result.problems.length > 0)
            toast.error(
              `${plural(result.problems.length, 'line needs', 'lines need')} fixing; nothing was imported.`,
            );
          else if (result.applied)
            toast.success(
              `Imported: ${plural(result.enrolled + result.reactivated, 'new enrolment', 'new enrolments')}.`,
            );
          else toast.success('The file is ready to import.');
        },
        onError: (error) => {
          setReport(null);
          setFileError(error.message);
        },
        onSettled: () => setPendingKind(null),
      },
    );
  }

  return (
    <Section
      title="Import enrolments from a CSV file"
      id="import-csv"
      description={
        <span id={rulesId}>
          The first line names the columns <code>email</code> and <code>course</code> (a course’s
          slug or id), and optionally <code>role</code> (student or instructor, added if the person
          lacks it) and <code>board</code> (a board’s slug or name). Every email must belong to a
          member of {scopeName(workspace)}. <strong>All or nothing:</strong> if any line is wrong,
          nothing is imported and each wrong line is listed. At most{' '}
          {IMPORT_MAX_ROWS.toLocaleString('en-GB')} lines and {IMPORT_MAX_BYTES / 1024} KB.
        </span>
      }
    >
      <div className="grid gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor={fileId}>CSV file</Label>
          <Input
            ref={fileRef}
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={`${rulesId}${fileError ? ` ${fileId}-error` : ''}`}
            aria-invalid={fileError ? true : undefined}
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setReport(null);
              setFileError(null);
            }}
          />
          <FieldError id={`${fileId}-error`} message={fileError} />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            disabled={run.isPending}
            onClick={() => void send(true)}
          >
            <FileCheck2 aria-hidden="true" />
            {pendingKind === 'check' ? 'Checking…' : 'Check the file'}
          </Button>
          <Button type="button" disabled={run.isPending} onClick={() => void send(false)}>
            <Upload aria-hidden="true" />
            {pendingKind === 'import' ? 'Importing…' : 'Import'}
          </Button>
        </div>
        {report && <ImportReportView report={report} />}
      </div>
    </Section>
  );
}

function ImportReportView({ report }: { report: ImportReport }) {
  const counts = [
    `${plural(report.enrolled, 'new enrolment', 'new enrolments')}`,
    report.reactivated > 0 ? `${report.reactivated} re-enrolled` : '',
    report.alreadyEnrolled > 0 ? `${report.alreadyEnrolled} already enrolled` : '',
    report.membershipsAdded > 0 ? `${plural(report.membershipsAdded, 'role', 'roles')} added` : '',
  ]
    .filter(Boolean)
    .join(', ');
  if (report.problems.length === 0) {
    return (
      <Notice tone="success">
        {report.applied
          ? `Imported ${plural(report.rows, 'line', 'lines')}: ${counts}.`
          : `All ${plural(report.rows, 'line', 'lines')} are fine. Importing makes ${counts}.`}
      </Notice>
    );
  }
  return (
    <div className="grid gap-3" aria-live="polite">
      <Notice tone="error">
        Nothing was imported: {plural(report.problems.length, 'line is', 'lines are')} wrong out of{' '}
        {plural(report.rows, 'line', 'lines')}. Fix them in the file and import it again.
      </Notice>
      <Table regionLabel="Lines to fix">
        <caption className="sr-only">Lines of the file to fix</caption>
        <TableHeader>
          <TableRow>
            <TableHead scope="col">Line</TableHead>
            <TableHead scope="col">Email</TableHead>
            <TableHead scope="col">Course</TableHead>
            <TableHead scope="col">What is wrong</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {report.problems.map((problem) => (
            <TableRow key={problem.line}>
              <TableCell className="tabular-nums">{problem.line}</TableCell>
              <TableCell className="break-all">{problem.email || '—'}</TableCell>
              <TableCell className="break-all">{problem.course || '—'}</TableCell>
              <TableCell className="whitespace-normal">
                <ul className="grid gap-1">
                  {problem.problems.map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </ul>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function EnrolmentList({
  workspace,
  courses,
}: {
  workspace: AdminWorkspace;
  courses: AdminCourse[];
}) {
  const [params, setParams] = useSearchParams();
  const query: EnrolmentQuery = enrolmentQuerySchema.parse({
    q: params.get('q') ?? '',
    courseId: params.get('course') ?? '',
    page: pageFrom(params),
  });
  const enrolments = useEnrolments(workspace.organizationId, query);
  const [draft, setDraft] = useState(query.q);
  const [searchError, setSearchError] = useState<string | null>(null);
  const searchId = useId();
  const courseFilterId = useId();

  function update(next: Partial<EnrolmentQuery>) {
    const merged = { ...query, page: 1, ...next };
    const values: Record<string, string> = {};
    if (merged.q) values.q = merged.q;
    if (merged.courseId) values.course = merged.courseId;
    if (merged.page > 1) values.page = String(merged.page);
    setParams(values, { preventScrollReset: true });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = searchTextSchema.safeParse(draft);
    if (!parsed.success) {
      setSearchError(parsed.error.issues[0]?.message ?? 'Check the search.');
      return;
    }
    setSearchError(null);
    update({ q: parsed.data });
  }

  const total = enrolments.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ENROLMENTS_PAGE_SIZE));
  const filtered = Boolean(query.q || query.courseId);

  return (
    <Section title="Enrolments" id="enrolment-list">
      <form
        role="search"
        onSubmit={submit}
        noValidate
        className="mb-4 grid gap-3 sm:grid-cols-[1fr_16rem_auto] sm:items-end"
      >
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={searchId}>Search by person or course</Label>
          <Input
            id={searchId}
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            aria-invalid={searchError ? true : undefined}
            aria-describedby={searchError ? `${searchId}-error` : undefined}
          />
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={courseFilterId}>Course</Label>
          <NativeSelect
            id={courseFilterId}
            value={query.courseId}
            onChange={(event) => update({ courseId: event.target.value })}
          >
            <option value="">Every course</option>
            {courses.map((course) => (
              <option key={course.id} value={course.id}>
                {course.title}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          Search
        </Button>
        <div className="sm:col-span-3">
          <FieldError id={`${searchId}-error`} message={searchError} />
        </div>
      </form>
      {enrolments.isPending ? (
        <LoadingBlock label="Loading enrolments…" />
      ) : enrolments.isError ? (
        <LoadError
          message={`Could not load the enrolments: ${enrolments.error.message}`}
          onRetry={() => void enrolments.refetch()}
        />
      ) : enrolments.data.enrolments.length === 0 ? (
        <EmptyState
          action={
            filtered ? (
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  setDraft('');
                  setParams({}, { preventScrollReset: true });
                }}
              >
                Show every enrolment
              </Button>
            ) : undefined
          }
        >
          {filtered
            ? 'No enrolment matches this search. Try a shorter word or another course.'
            : 'Nobody is enrolled in a course yet. Enrol one person, a board or a CSV file above.'}
        </EmptyState>
      ) : (
        <div className="grid gap-3">
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {plural(total, 'enrolment', 'enrolments')}
            {query.q ? ` matching “${query.q}”` : ''} · page {query.page} of {pages}
          </p>
          <ul className="grid gap-2">
            {enrolments.data.enrolments.map((enrolment) => (
              <EnrolmentItem key={enrolment.id} enrolment={enrolment} workspace={workspace} />
            ))}
          </ul>
          <Pager
            label="Enrolment pages"
            page={query.page - 1}
            pages={pages}
            onPage={(next) => update({ page: next + 1 })}
          />
        </div>
      )}
    </Section>
  );
}

const enrolmentStatusLabels: Record<OrgEnrolment['status'], string> = {
  active: 'Active',
  completed: 'Completed',
  dropped: 'Dropped',
};

function EnrolmentItem({
  enrolment,
  workspace,
}: {
  enrolment: OrgEnrolment;
  workspace: AdminWorkspace;
}) {
  const unenrol = useUnenrol(workspace.organizationId);
  const [confirming, setConfirming] = useState(false);
  const name = enrolment.fullName ?? enrolment.email;
  return (
    <li className="grid gap-2 rounded-lg border p-3 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] md:items-center md:gap-4">
      <div className="min-w-0">
        <p className="font-medium break-words">{name}</p>
        <p className="text-sm break-all text-muted-foreground">{enrolment.email}</p>
      </div>
      <div className="min-w-0 text-sm">
        <p className="font-medium break-words">{enrolment.courseTitle}</p>
        <p className="text-muted-foreground">
          <Badge variant="outline">{enrolmentStatusLabels[enrolment.status]}</Badge>{' '}
          {enrolment.progressPercent}% · since {dateFormat.format(new Date(enrolment.enrolledAt))}
        </p>
      </div>
      <div>
        <Button size="sm" variant="outline" onClick={() => setConfirming(true)}>
          Unenrol
          <span className="sr-only">
            {' '}
            {name} from {enrolment.courseTitle}
          </span>
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Unenrol ${name}?`}
        description={`${name} leaves ${enrolment.courseTitle}. Their lesson progress and quiz results are kept, and enrolling them again brings them back.`}
        confirmLabel={unenrol.isPending ? 'Unenrolling…' : 'Unenrol'}
        pending={unenrol.isPending}
        onConfirm={() =>
          unenrol.mutate(enrolment.id, {
            onSuccess: () => {
              setConfirming(false);
              toast.success(`${name} is unenrolled from ${enrolment.courseTitle}.`);
            },
            onError: (error) => toast.error(error.message),
          })
        }
      />
    </li>
  );
}
