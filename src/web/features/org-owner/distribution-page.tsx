/**
 * Course distribution: every course of the organization with the boards it is distributed
 * to, searched and paged on the server; the owner chooses a course's boards in a dialog. In a
 * board's workspace the list starts with that board's courses (the workspace scope).
 */
import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Search, Share2 } from 'lucide-react';
import { toast } from 'sonner';
import { z } from 'zod';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Pager } from '@/components/ui/pager';
import {
  DISTRIBUTION_PAGE_SIZE,
  useDistribution,
  useSetDistribution,
  type DistributedCourse,
} from './api/distribution';
import { useBoards, type BoardSummary } from './api/get-boards';
import { FieldError, OwnerOnly, plural, type OwnedWorkspace } from './owner-ui';
import { ownerPaths } from './owner-paths';

const searchSchema = z.object({
  q: z.string().trim().max(100, 'Search for at most 100 characters.'),
});

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page - 1 : 0;
}

export function DistributionPage() {
  return (
    <OwnerOnly title="Course distribution">
      {(workspace) => <Distribution workspace={workspace} />}
    </OwnerOnly>
  );
}

function Distribution({ workspace }: { workspace: OwnedWorkspace }) {
  const [params, setParams] = useSearchParams();
  const search = (params.get('q') ?? '').trim().slice(0, 100);
  const page = pageFrom(params);
  // The workspace's board narrows the list until the owner asks for every course.
  const scopeBoard = params.get('all') === '1' ? null : workspace.boardId;
  const boards = useBoards(workspace.organizationId);
  const courses = useDistribution(workspace.organizationId, search, scopeBoard, page);
  const [draft, setDraft] = useState(search);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  function update(next: { q?: string; page?: number; all?: boolean }) {
    const values: Record<string, string> = {};
    const q = next.q ?? search;
    if (q) values.q = q;
    if (next.page) values.page = String(next.page + 1);
    if (next.all ?? params.get('all') === '1') values.all = '1';
    setParams(values);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = searchSchema.safeParse({ q: draft });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the search.');
      return;
    }
    setError(null);
    update({ q: parsed.data.q, page: 0 });
  }

  const total = courses.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / DISTRIBUTION_PAGE_SIZE));
  const boardList = boards.data ?? [];

  return (
    <AppPage
      wide
      title="Course distribution"
      intro="Distribute a course to one or more boards: their members find it in their course library once it is published. Withdrawing it keeps the enrolments already made."
    >
      {scopeBoard && workspace.boardName && (
        <Notice tone="info">
          Showing the courses distributed to {workspace.boardName}, the board of your workspace.{' '}
          <button
            type="button"
            className="font-medium underline"
            onClick={() => update({ all: true, page: 0 })}
          >
            Show every course
          </button>
        </Notice>
      )}
      <form role="search" onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
        <div className="grid min-w-0 flex-1 basis-64 gap-2">
          <Label htmlFor={id}>Search courses by title</Label>
          <Input
            id={id}
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          Search
        </Button>
        <div className="w-full">
          <FieldError id={`${id}-error`} message={error} />
        </div>
      </form>
      <Section title="Courses of the organization" id="courses">
        {courses.isPending || boards.isPending ? (
          <LoadingBlock label="Loading courses…" />
        ) : courses.isError ? (
          <LoadError
            message={`Could not load the courses: ${courses.error.message}`}
            onRetry={() => void courses.refetch()}
          />
        ) : boards.isError ? (
          <LoadError
            message={`Could not load the boards: ${boards.error.message}`}
            onRetry={() => void boards.refetch()}
          />
        ) : boardList.length === 0 ? (
          <EmptyState
            action={
              <Button asChild size="sm" variant="outline">
                <Link to={ownerPaths.boards}>Create a board</Link>
              </Button>
            }
          >
            {workspace.organizationName} has no board yet. Create one, then distribute courses to it
            here.
          </EmptyState>
        ) : courses.data.courses.length === 0 ? (
          <EmptyState
            action={
              search || scopeBoard ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    setDraft('');
                    setParams({ all: '1' });
                  }}
                >
                  Show every course
                </Button>
              ) : undefined
            }
          >
            {search
              ? `No course title contains “${search}”. Try a shorter or different word.`
              : scopeBoard
                ? `No course is distributed to ${workspace.boardName ?? 'this board'} yet. Show every course to choose some.`
                : `${workspace.organizationName} has no course yet. Once its instructors create courses, distribute them here.`}
          </EmptyState>
        ) : (
          <div className="grid gap-3">
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {plural(total, 'course', 'courses')}
              {search ? ` matching “${search}”` : ''} · page {page + 1} of {pages}
            </p>
            <ul className="grid gap-2">
              {courses.data.courses.map((course) => (
                <CourseRow
                  key={course.id}
                  course={course}
                  boards={boardList}
                  organizationId={workspace.organizationId}
                />
              ))}
            </ul>
            <Pager
              label="Course pages"
              page={page}
              pages={pages}
              onPage={(next) => update({ page: next })}
            />
          </div>
        )}
      </Section>
    </AppPage>
  );
}

function CourseRow({
  course,
  boards,
  organizationId,
}: {
  course: DistributedCourse;
  boards: BoardSummary[];
  organizationId: string;
}) {
  const [choosing, setChoosing] = useState(false);
  const names = boards.filter((b) => course.boardIds.includes(b.id)).map((b) => b.name);
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-lg border p-3">
      <div className="min-w-0 flex-1 basis-60">
        <p className="font-medium">
          {course.title}
          {!course.published && (
            <Badge variant="outline" className="ml-2 align-middle">
              Draft
            </Badge>
          )}
        </p>
        <p className="mt-1 flex flex-wrap gap-1.5 text-sm text-muted-foreground">
          {names.length === 0
            ? 'Not distributed to any board'
            : names.map((name) => (
                <Badge key={name} variant="secondary">
                  {name}
                </Badge>
              ))}
        </p>
      </div>
      <Button
        size="sm"
        variant="outline"
        onClick={() => setChoosing(true)}
        aria-label={`Choose boards for ${course.title}`}
      >
        <Share2 aria-hidden="true" />
        Choose boards
      </Button>
      {choosing && (
        <ChooseBoardsDialog
          course={course}
          boards={boards}
          organizationId={organizationId}
          onClose={() => setChoosing(false)}
        />
      )}
    </li>
  );
}

function ChooseBoardsDialog({
  course,
  boards,
  organizationId,
  onClose,
}: {
  course: DistributedCourse;
  boards: BoardSummary[];
  organizationId: string;
  onClose: () => void;
}) {
  const save = useSetDistribution();
  const [chosen, setChosen] = useState(() => new Set(course.boardIds));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const known = new Set(boards.map((b) => b.id));
  const schema = z.object({
    boardIds: z
      .array(z.string())
      .refine((ids) => ids.every((b) => known.has(b)), 'Choose boards of this organization.'),
  });

  function toggle(boardId: string, on: boolean) {
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(boardId);
      else next.delete(boardId);
      return next;
    });
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = schema.safeParse({ boardIds: [...chosen] });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the boards.');
      return;
    }
    setError(null);
    const add = parsed.data.boardIds.filter((b) => !course.boardIds.includes(b));
    const withdraw = course.boardIds.filter((b) => known.has(b) && !chosen.has(b));
    if (add.length === 0 && withdraw.length === 0) {
      onClose();
      return;
    }
    // Awaited: in a board's workspace a withdrawn course leaves the list, this dialog with it.
    try {
      await save.mutateAsync({ organizationId, courseId: course.id, add, withdraw });
      const parts = [
        add.length > 0 ? `distributed to ${plural(add.length, 'board', 'boards')}` : '',
        withdraw.length > 0 ? `withdrawn from ${plural(withdraw.length, 'board', 'boards')}` : '',
      ].filter(Boolean);
      toast.success(`${course.title} ${parts.join(' and ')}.`);
      onClose();
    } catch (failure) {
      toast.error(`Could not change the distribution: ${(failure as Error).message}`);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Boards for {course.title}</DialogTitle>
            <DialogDescription>
              {course.published
                ? 'Members of the boards you tick find this course in their course library.'
                : 'This course is a draft: members of the boards you tick find it once an instructor publishes it.'}
            </DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-2" aria-describedby={error ? `${id}-error` : undefined}>
            <legend className="mb-1 text-sm font-medium">Distributed to</legend>
            {boards.map((board) => {
              const boxId = `${id}-${board.id}`;
              return (
                <div key={board.id} className="flex items-center gap-2">
                  <input
                    id={boxId}
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={chosen.has(board.id)}
                    onChange={(event) => toggle(board.id, event.target.checked)}
                  />
                  <Label htmlFor={boxId} className="font-normal">
                    {board.name}
                  </Label>
                </div>
              );
            })}
            <FieldError id={`${id}-error`} message={error} />
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save distribution'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
