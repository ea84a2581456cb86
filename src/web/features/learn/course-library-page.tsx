/**
 * The course library: the courses this user may find in the chosen workspace (their
 * organization's and public ones; in Personal mode public ones), searched and paged on the
 * server. Search and page live in the address, so a result can be shared and Back works.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CheckCircle2 } from 'lucide-react';
import { toast } from 'sonner';
import { z } from 'zod';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { useAppSession } from '@/lib/app-session';
import { useEnrolInCourse } from './api/enrol-in-course';
import { LIBRARY_PAGE_SIZE, useCourseLibrary, type LibraryCourse } from './api/get-course-library';
import { SearchForm } from '@/components/search-form';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { learnPaths } from './learn-paths';

const searchSchema = z.object({
  q: z.string().trim().max(100, 'Search for at most 100 characters.'),
});

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page - 1 : 0;
}

export function CourseLibraryPage() {
  const session = useAppSession();
  const [params, setParams] = useSearchParams();
  const search = (params.get('q') ?? '').trim().slice(0, 100);
  const page = pageFrom(params);
  const library = useCourseLibrary(session, search, page);
  const [draft, setDraft] = useState(search);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = searchSchema.safeParse({ q: draft });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the search.');
      return;
    }
    setError(null);
    setParams(parsed.data.q ? { q: parsed.data.q } : {});
  }

  function goTo(next: number) {
    const nextParams: Record<string, string> = {};
    if (search) nextParams.q = search;
    if (next > 0) nextParams.page = String(next + 1);
    setParams(nextParams);
  }

  const total = library.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE));
  const intro =
    session.workspace.kind === 'personal'
      ? 'Public courses you can enrol in yourself.'
      : session.workspace.boardName
        ? `Courses of ${session.workspace.organizationName} distributed to ${session.workspace.boardName}.`
        : `Courses of ${session.workspace.organizationName} and public courses.`;

  return (
    <AppPage title="Course library" intro={intro} wide>
      <SearchForm
        label="Search courses by title"
        value={draft}
        onValueChange={setDraft}
        onSubmit={submit}
        error={error}
      />

      {library.isPending ? (
        <LoadingBlock label="Loading courses…" />
      ) : library.isError ? (
        <LoadError
          message={`Could not load the courses: ${library.error.message}`}
          onRetry={() => void library.refetch()}
        />
      ) : library.data.courses.length === 0 ? (
        <EmptyState
          action={
            search ? (
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  setDraft('');
                  setParams({});
                }}
              >
                Show all courses
              </Button>
            ) : undefined
          }
        >
          {search
            ? `No course title contains “${search}”. Try a shorter or different word.`
            : session.workspace.kind === 'personal'
              ? 'No public course is published yet. Check back later, or ask your institution for an invitation.'
              : 'No course is open to you in this workspace yet. Ask your instructor or administrator to distribute one to your board.'}
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? '1 course' : `${total} courses`}
            {search ? ` matching “${search}”` : ''} · page {page + 1} of {pages}
          </p>
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {library.data.courses.map((course) => (
              <CourseCard key={course.id} course={course} />
            ))}
          </ul>
          <Pager label="Course pages" page={page} pages={pages} onPage={goTo} />
        </>
      )}
    </AppPage>
  );
}

function CourseCard({ course }: { course: LibraryCourse }) {
  const session = useAppSession();
  const enrol = useEnrolInCourse();

  function enrolNow() {
    enrol.mutate(
      { userId: session.userId, courseId: course.id },
      {
        onSuccess: () => toast.success(`You are enrolled in ${course.title}.`),
        onError: (error) => toast.error(error.message),
      },
    );
  }

  return (
    <li className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <div className="flex flex-wrap gap-2">
        {course.subject && <Badge variant="secondary">{course.subject}</Badge>}
        {course.visibility === 'public' && <Badge variant="outline">Public</Badge>}
      </div>
      <h2 className="text-base leading-snug font-semibold">
        <Link
          to={learnPaths.course(course.id)}
          className="text-primary underline-offset-4 hover:underline"
        >
          {course.title}
        </Link>
      </h2>
      {course.organizationName && (
        <p className="text-xs text-muted-foreground">{course.organizationName}</p>
      )}
      <p className="line-clamp-4 text-sm text-muted-foreground">{course.description}</p>
      <div className="mt-auto">
        {course.enrolled ? (
          <p className="inline-flex items-center gap-1.5 text-sm font-medium text-success">
            <CheckCircle2 aria-hidden="true" className="size-4" />
            Enrolled
          </p>
        ) : (
          <Button
            size="sm"
            onClick={enrolNow}
            disabled={enrol.isPending}
            aria-label={`Enrol in ${course.title}`}
          >
            {enrol.isPending ? 'Enrolling…' : 'Enrol'}
          </Button>
        )}
      </div>
    </li>
  );
}
