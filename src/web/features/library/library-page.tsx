/**
 * The library (issue 12, decision 0151): every lesson the learner may read, filtered by course
 * and kind, and full-text search across lesson text and the text of PDF and ePub files, best
 * first, with the matching words marked. A hit in a PDF opens the in-app reader at its page. Query,
 * filters and page live in the address, so Back and a shared link work.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BookOpen, FileText } from 'lucide-react';
import { routePath } from '@common/routes';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { SearchForm } from '@/components/search-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { useAppSession } from '@/lib/app-session';
import { useLibraryCourses } from './api/get-library-courses';
import { lessonKinds, type LessonKind, type LibraryFilters } from './api/library-keys';
import { LIBRARY_PAGE_SIZE, useLibrarySearch, type LibraryHit } from './api/search-library';
import { Snippet } from './snippet';

const kindLabels: Record<LessonKind, string> = {
  markdown: 'Text',
  pdf: 'PDF',
  epub: 'ePub',
  video: 'Video',
};

function filtersFrom(params: URLSearchParams): LibraryFilters {
  const page = Number(params.get('page') ?? '1');
  const kind = params.get('kind');
  return {
    query: (params.get('q') ?? '').trim().slice(0, 200),
    courseId: params.get('course') || null,
    kind: (lessonKinds as readonly string[]).includes(kind ?? '') ? (kind as LessonKind) : null,
    page: Number.isInteger(page) && page >= 1 && page <= 500 ? page - 1 : 0,
  };
}

export function LibraryPage() {
  const session = useAppSession();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const results = useLibrarySearch(session.userId, filters);
  const courses = useLibraryCourses(session.userId);
  const [draft, setDraft] = useState(filters.query);
  const [error, setError] = useState<string | null>(null);

  function update(next: Partial<LibraryFilters>) {
    const merged = { ...filters, page: 0, ...next };
    const out: Record<string, string> = {};
    if (merged.query) out.q = merged.query;
    if (merged.courseId) out.course = merged.courseId;
    if (merged.kind) out.kind = merged.kind;
    if (merged.page > 0) out.page = String(merged.page + 1);
    setParams(out);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const query = draft.trim();
    if (query.length > 200) {
      setError('Search for at most 200 characters.');
      return;
    }
    setError(null);
    update({ query });
  }

  const total = results.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE));

  return (
    <AppPage
      title="Library"
      intro="Every lesson and course file you can read. Search finds words in lesson text and inside PDF and ePub files."
      wide
    >
      <SearchForm
        label="Search lessons and files"
        value={draft}
        onValueChange={setDraft}
        onSubmit={submit}
        error={error}
      />
      <div className="flex flex-wrap gap-4">
        <div className="grid min-w-48 flex-1 gap-2 sm:flex-none">
          <Label htmlFor="library-course">Course</Label>
          <NativeSelect
            id="library-course"
            value={filters.courseId ?? ''}
            onChange={(event) => update({ courseId: event.target.value || null })}
          >
            <option value="">All courses</option>
            {(courses.data ?? []).map((course) => (
              <option key={course.id} value={course.id}>
                {course.title}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid min-w-36 flex-1 gap-2 sm:flex-none">
          <Label htmlFor="library-kind">Kind</Label>
          <NativeSelect
            id="library-kind"
            value={filters.kind ?? ''}
            onChange={(event) =>
              update({ kind: (event.target.value || null) as LessonKind | null })
            }
          >
            <option value="">All kinds</option>
            {lessonKinds.map((kind) => (
              <option key={kind} value={kind}>
                {kindLabels[kind]}
              </option>
            ))}
          </NativeSelect>
        </div>
      </div>

      {results.isPending ? (
        <LoadingBlock label="Loading the library…" />
      ) : results.isError ? (
        <LoadError
          message={`Could not load the library: ${results.error.message}`}
          onRetry={() => void results.refetch()}
        />
      ) : results.data.hits.length === 0 ? (
        <EmptyState>
          {filters.query
            ? `Nothing you can read contains “${filters.query}”. Try other words, or another course or kind.`
            : 'No lesson to read here yet. Enrol in a course from the course list to find its lessons here.'}
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? '1 result' : `${total} results`}
            {filters.query ? ` for “${filters.query}”` : ''} · page {filters.page + 1} of {pages}
          </p>
          <ul className="grid gap-3">
            {results.data.hits.map((hit) => (
              <HitCard key={`${hit.lessonId}-${hit.position ?? 0}`} hit={hit} />
            ))}
          </ul>
          <Pager
            label="Library pages"
            page={filters.page}
            pages={pages}
            onPage={(page) => update({ page })}
          />
        </>
      )}
    </AppPage>
  );
}

function where(hit: LibraryHit): string | null {
  if (hit.position === null) return null;
  if (hit.kind === 'pdf') return `Page ${hit.position}`;
  return hit.label ? `Chapter: ${hit.label}` : `Chapter ${hit.position}`;
}

function readerAddress(hit: LibraryHit): string {
  const path = routePath('/app/courses/:courseId/lessons/:lessonId/read', {
    courseId: hit.courseId,
    lessonId: hit.lessonId,
  });
  if (!hit.position) return path;
  return `${path}?${hit.kind === 'epub' ? 'chapter' : 'page'}=${hit.position}`;
}

function HitCard({ hit }: { hit: LibraryHit }) {
  const place = where(hit);
  return (
    <li className="grid gap-2 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="outline">{kindLabels[hit.kind]}</Badge>
        {place && <Badge variant="secondary">{place}</Badge>}
        <span className="text-sm text-muted-foreground">
          {hit.courseTitle} · {hit.moduleTitle}
        </span>
      </div>
      <h2 className="text-base font-semibold">
        <Link
          to={`/app/courses/${hit.courseId}/lessons/${hit.lessonId}`}
          className="underline-offset-4 hover:underline focus-visible:underline"
        >
          {hit.lessonTitle}
        </Link>
      </h2>
      {hit.snippet && <Snippet text={hit.snippet} />}
      {(hit.kind === 'pdf' || hit.kind === 'epub') && hit.filePath && (
        <div>
          <Button asChild size="sm" variant="outline">
            <Link to={readerAddress(hit)}>
              {place ? <FileText aria-hidden="true" /> : <BookOpen aria-hidden="true" />}
              {hit.kind === 'epub'
                ? place
                  ? `Open the ePub at ${hit.label ? `“${hit.label}”` : `chapter ${hit.position}`}`
                  : 'Open the ePub'
                : place
                  ? `Open the PDF at page ${hit.position}`
                  : 'Open the PDF'}
              <span className="sr-only"> of {hit.lessonTitle}</span>
            </Link>
          </Button>
        </div>
      )}
    </li>
  );
}
