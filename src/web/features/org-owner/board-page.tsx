/**
 * One board for its owner: its admins (named and removed here) and the courses distributed to
 * it (withdrawn here). What a board admin may do is what the database lets them do (decision
 * 0100): manage the learners and instructors of their board and enrol it in its courses.
 */
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Share2, Trash2, UserPlus } from 'lucide-react';
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
import { Pager } from '@/components/ui/pager';
import { useRouteParams } from '@/lib/use-route-params';
import {
  BoardAdminCandidateError,
  useBoardAdmins,
  useNameBoardAdmin,
  useRemoveBoardAdmin,
  type BoardAdmin,
} from './api/board-admins';
import {
  DISTRIBUTION_PAGE_SIZE,
  useDistribution,
  useSetDistribution,
  type DistributedCourse,
} from './api/distribution';
import { useBoards, type BoardSummary } from './api/get-boards';
import { FieldError, OwnerOnly, plural, type OwnedWorkspace } from './owner-ui';
import { ownerPaths } from './owner-paths';

const back = { to: ownerPaths.boards, label: 'All boards' };

export function BoardPage() {
  return <OwnerOnly title="Board">{(workspace) => <Board workspace={workspace} />}</OwnerOnly>;
}

function Board({ workspace }: { workspace: OwnedWorkspace }) {
  const { boardId = '' } = useRouteParams();
  const boards = useBoards(workspace.organizationId);
  if (boards.isPending) {
    return (
      <AppPage wide title="Board" back={back}>
        <LoadingBlock label="Loading the board…" />
      </AppPage>
    );
  }
  if (boards.isError) {
    return (
      <AppPage wide title="Board" back={back}>
        <LoadError
          message={`Could not load the board: ${boards.error.message}`}
          onRetry={() => void boards.refetch()}
        />
      </AppPage>
    );
  }
  const board = boards.data.find((b) => b.id === boardId);
  if (!board) {
    return (
      <AppPage wide title="Board" back={back}>
        <EmptyState>
          This board is not one of {workspace.organizationName}&rsquo;s: it may have been removed.
          Go back to the boards to choose another.
        </EmptyState>
      </AppPage>
    );
  }
  return (
    <AppPage
      wide
      title={board.name}
      back={back}
      intro={`${plural(board.members, 'member', 'members')} · ${plural(board.courses, 'course', 'courses')} distributed`}
    >
      <BoardAdmins board={board} workspace={workspace} />
      <BoardCourses board={board} workspace={workspace} />
    </AppPage>
  );
}

const emailSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter the sign-in address of the person to name.')
    .max(320, 'An address has at most 320 characters.')
    .email('Enter an address such as name@example.org.'),
});

function BoardAdmins({ board, workspace }: { board: BoardSummary; workspace: OwnedWorkspace }) {
  const admins = useBoardAdmins(workspace.organizationId, board.id);
  const name = useNameBoardAdmin();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = emailSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the address.');
      return;
    }
    setError(null);
    name.mutate(
      {
        organizationId: workspace.organizationId,
        organizationName: workspace.organizationName,
        boardId: board.id,
        boardName: board.name,
        email: parsed.data.email,
      },
      {
        onSuccess: (named) => {
          toast.success(`${named.name} is now an admin of ${board.name}.`);
          setEmail('');
        },
        onError: (failure) => {
          if (failure instanceof BoardAdminCandidateError) setError(failure.message);
          else toast.error(`Could not name the board admin: ${failure.message}`);
        },
      },
    );
  }

  return (
    <Section
      title="Board admins"
      id="board-admins"
      description={
        <>
          A board admin manages the learners and instructors of {board.name} on their Users and
          Enrolments screens: adds, invites, changes roles, deactivates, and enrols them in the
          courses distributed to the board. They see no other board&apos;s people. Boards, board
          admins and distribution stay with you.
        </>
      }
    >
      {admins.isPending ? (
        <LoadingBlock label="Loading board admins…" />
      ) : admins.isError ? (
        <LoadError
          message={`Could not load the board admins: ${admins.error.message}`}
          onRetry={() => void admins.refetch()}
        />
      ) : admins.data.length === 0 ? (
        <EmptyState>
          {board.name} has no admin yet. Name one below with the address they sign in with; they
          must already belong to {workspace.organizationName}.
        </EmptyState>
      ) : (
        <ul className="grid gap-2">
          {admins.data.map((admin) => (
            <AdminItem
              key={admin.membershipId}
              admin={admin}
              board={board}
              organizationId={workspace.organizationId}
            />
          ))}
        </ul>
      )}
      <form onSubmit={submit} noValidate className="mt-4 flex flex-wrap items-end gap-2">
        <div className="grid min-w-0 flex-1 basis-64 gap-2">
          <Label htmlFor={id}>Name a board admin (sign-in address)</Label>
          <Input
            id={id}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <Button type="submit" disabled={name.isPending}>
          <UserPlus aria-hidden="true" />
          {name.isPending ? 'Naming…' : 'Name board admin'}
        </Button>
        <div className="w-full">
          <FieldError id={`${id}-error`} message={error} />
        </div>
      </form>
    </Section>
  );
}

function AdminItem({
  admin,
  board,
  organizationId,
}: {
  admin: BoardAdmin;
  board: BoardSummary;
  organizationId: string;
}) {
  const remove = useRemoveBoardAdmin();
  const [confirming, setConfirming] = useState(false);

  // Awaited: this row leaves the list when the admins are read again, and a mutate() callback
  // would not run after that.
  async function confirm() {
    try {
      await remove.mutateAsync({ organizationId, membershipId: admin.membershipId });
      toast.success(`${admin.name} is no longer an admin of ${board.name}.`);
    } catch (failure) {
      toast.error(`Could not remove the board admin: ${(failure as Error).message}`);
    }
  }

  return (
    <li className="flex flex-wrap items-center gap-3 rounded-lg border p-3">
      <div className="min-w-0 flex-1 basis-56">
        <p className="font-medium">{admin.name}</p>
        <p className="text-sm break-all text-muted-foreground">{admin.email}</p>
      </div>
      {!admin.active && <Badge variant="outline">Deactivated</Badge>}
      <Button
        size="sm"
        variant="outline"
        onClick={() => setConfirming(true)}
        aria-label={`Remove ${admin.name} as board admin`}
      >
        <Trash2 aria-hidden="true" />
        Remove
      </Button>
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>
              Remove {admin.name} as admin of {board.name}?
            </DialogTitle>
            <DialogDescription>
              {admin.otherMemberships > 0
                ? `They keep their ${plural(admin.otherMemberships, 'other membership', 'other memberships')} in the organization.`
                : 'This is their only membership: they will no longer belong to the organization. Their enrolments and results are kept.'}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button
              variant="destructive"
              onClick={() => void confirm()}
              disabled={remove.isPending}
            >
              {remove.isPending ? 'Removing…' : 'Remove board admin'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </li>
  );
}

function BoardCourses({ board, workspace }: { board: BoardSummary; workspace: OwnedWorkspace }) {
  const [page, setPage] = useState(0);
  const courses = useDistribution(workspace.organizationId, '', board.id, page);
  const total = courses.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / DISTRIBUTION_PAGE_SIZE));
  return (
    <Section
      title={`Courses distributed to ${board.name}`}
      id="board-courses"
      description="Its members find these in their course library once they are published."
    >
      {courses.isPending ? (
        <LoadingBlock label="Loading courses…" />
      ) : courses.isError ? (
        <LoadError
          message={`Could not load the courses: ${courses.error.message}`}
          onRetry={() => void courses.refetch()}
        />
      ) : courses.data.courses.length === 0 ? (
        <EmptyState
          action={
            <Button asChild size="sm" variant="outline">
              <Link to={ownerPaths.distribution}>
                <Share2 aria-hidden="true" />
                Distribute courses
              </Link>
            </Button>
          }
        >
          No course is distributed to {board.name} yet. Choose its courses on the course
          distribution page.
        </EmptyState>
      ) : (
        <div className="grid gap-3">
          <ul className="grid gap-2">
            {courses.data.courses.map((course) => (
              <CourseItem
                key={course.id}
                course={course}
                board={board}
                organizationId={workspace.organizationId}
              />
            ))}
          </ul>
          <Pager label="Course pages" page={page} pages={pages} onPage={setPage} />
        </div>
      )}
    </Section>
  );
}

function CourseItem({
  course,
  board,
  organizationId,
}: {
  course: DistributedCourse;
  board: BoardSummary;
  organizationId: string;
}) {
  const withdraw = useSetDistribution();
  // Awaited: the course leaves this list when it is read again.
  async function run() {
    try {
      await withdraw.mutateAsync({
        organizationId,
        courseId: course.id,
        add: [],
        withdraw: [board.id],
      });
      toast.success(`${course.title} withdrawn from ${board.name}.`);
    } catch (failure) {
      toast.error(`Could not withdraw the course: ${(failure as Error).message}`);
    }
  }
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-lg border p-3">
      <div className="min-w-0 flex-1 basis-56">
        <p className="font-medium">{course.title}</p>
        {course.subject && <p className="text-sm text-muted-foreground">{course.subject}</p>}
      </div>
      {!course.published && <Badge variant="outline">Draft</Badge>}
      <Button
        size="sm"
        variant="outline"
        onClick={() => void run()}
        disabled={withdraw.isPending}
        aria-label={`Withdraw ${course.title} from ${board.name}`}
      >
        {withdraw.isPending ? 'Withdrawing…' : 'Withdraw'}
      </Button>
    </li>
  );
}
