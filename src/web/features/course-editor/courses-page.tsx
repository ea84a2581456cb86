/**
 * The courses the user teaches in this workspace, searched and paged on the server, with the
 * way to create a new one. Search and page live in the address, so Back works.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Plus } from 'lucide-react';
import { z } from 'zod';
import { SearchForm } from '@/components/search-form';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { useAppSession } from '@/lib/app-session';
import { TAUGHT_PAGE_SIZE, useTaughtCourses, type TaughtCourse } from './api/get-taught-courses';
import { editorPaths } from './editor-paths';
import { canAuthor, formatUpdated, visibilityLabels } from './editor-ui';

const searchSchema = z.object({
  q: z.string().trim().max(100, 'Search for at most 100 characters.'),
});

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page - 1 : 0;
}

export function TaughtCoursesPage() {
  const session = useAppSession();
  const [params, setParams] = useSearchParams();
  const search = (params.get('q') ?? '').trim().slice(0, 100);
  const page = pageFrom(params);
  const courses = useTaughtCourses(session, search, page);
  const [draft, setDraft] = useState(search);
  const [error, setError] = useState<string | null>(null);
  const mayCreate = canAuthor(session.workspace);

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

  const total = courses.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / TAUGHT_PAGE_SIZE));
  const intro =
    session.workspace.kind === 'personal'
      ? 'Your personal courses: write them, then publish them privately or to everyone.'
      : `Courses you teach at ${session.workspace.organizationName}.`;

  return (
    <AppPage
      title="Course editor"
      intro={intro}
      wide
      actions={
        mayCreate && (
          <Button asChild>
            <Link to={editorPaths.newCourse()}>
              <Plus aria-hidden="true" />
              New course
            </Link>
          </Button>
        )
      }
    >
      <SearchForm
        label="Search your courses by title or subject"
        value={draft}
        onValueChange={setDraft}
        onSubmit={submit}
        error={error}
      />

      {courses.isPending ? (
        <LoadingBlock label="Loading your courses…" />
      ) : courses.isError ? (
        <LoadError
          message={`Could not load your courses: ${courses.error.message}`}
          onRetry={() => void courses.refetch()}
        />
      ) : courses.data.courses.length === 0 ? (
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
                Show all your courses
              </Button>
            ) : mayCreate ? (
              <Button size="sm" asChild>
                <Link to={editorPaths.newCourse()}>
                  <Plus aria-hidden="true" />
                  Create your first course
                </Link>
              </Button>
            ) : undefined
          }
        >
          {search
            ? `None of your courses has “${search}” in its title or subject. Try a shorter or different word.`
            : mayCreate
              ? 'You do not teach a course here yet. Create one, or ask an organization admin to add you to a course as an instructor.'
              : 'You do not teach a course here. An organization admin can make you an instructor.'}
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? '1 course' : `${total} courses`}
            {search ? ` matching “${search}”` : ''} · page {page + 1} of {pages}
          </p>
          <ul className="grid gap-3">
            {courses.data.courses.map((course) => (
              <CourseRow key={course.id} course={course} />
            ))}
          </ul>
          <Pager label="Course pages" page={page} pages={pages} onPage={goTo} />
        </>
      )}
    </AppPage>
  );
}

function CourseRow({ course }: { course: TaughtCourse }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <div className="min-w-0">
        <h2 className="text-base leading-snug font-semibold">
          <Link
            to={editorPaths.course(course.id)}
            className="text-primary underline-offset-4 hover:underline"
          >
            {course.title}
          </Link>
        </h2>
        <div className="mt-1.5 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          {course.subject && <Badge variant="secondary">{course.subject}</Badge>}
          <Badge variant="outline">{visibilityLabels[course.visibility]}</Badge>
          <Badge variant={course.published ? 'default' : 'outline'}>
            {course.published ? 'Published' : 'Draft'}
          </Badge>
          <span>Updated {formatUpdated(course.updatedAt)}</span>
        </div>
      </div>
      <Button size="sm" variant="outline" asChild>
        <Link to={editorPaths.course(course.id)} aria-label={`Edit ${course.title}`}>
          Edit
        </Link>
      </Button>
    </li>
  );
}
