/**
 * The owner's boards: create, rename and remove the organization's faculties or departments,
 * with each board's members, admins and distributed courses counted. Removing a board moves
 * its members to a board the owner picks (decision 0140).
 */
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
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
import { boardNameSchema, isNameTaken } from './api/board-name';
import { useCreateBoard } from './api/create-board';
import { useBoards, type BoardSummary } from './api/get-boards';
import { useRemoveBoard } from './api/remove-board';
import { useRenameBoard } from './api/rename-board';
import { FieldError, OwnerOnly, plural, type OwnedWorkspace } from './owner-ui';
import { ownerPaths } from './owner-paths';

export function BoardsPage() {
  return <OwnerOnly title="Boards">{(workspace) => <Boards workspace={workspace} />}</OwnerOnly>;
}

function Boards({ workspace }: { workspace: OwnedWorkspace }) {
  const boards = useBoards(workspace.organizationId);
  return (
    <AppPage
      wide
      title="Boards"
      intro={`The faculties and departments of ${workspace.organizationName}. Each board's members find the courses you distribute to it.`}
    >
      <Section title="New board" id="new-board">
        <CreateBoardForm organizationId={workspace.organizationId} />
      </Section>
      <Section title="Boards of the organization" id="board-list">
        {boards.isPending ? (
          <LoadingBlock label="Loading boards…" />
        ) : boards.isError ? (
          <LoadError
            message={`Could not load the boards: ${boards.error.message}`}
            onRetry={() => void boards.refetch()}
          />
        ) : boards.data.length === 0 ? (
          <EmptyState>
            No board yet. Create the first one above — a faculty or a department — then name its
            admins and distribute courses to it.
          </EmptyState>
        ) : (
          <ul className="grid gap-3">
            {boards.data.map((board) => (
              <BoardItem key={board.id} board={board} boards={boards.data} workspace={workspace} />
            ))}
          </ul>
        )}
      </Section>
    </AppPage>
  );
}

function CreateBoardForm({ organizationId }: { organizationId: string }) {
  const create = useCreateBoard();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = boardNameSchema.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the name.');
      return;
    }
    setError(null);
    create.mutate(
      { organizationId, name: parsed.data.name },
      {
        onSuccess: (board) => {
          toast.success(`Board ${board.name} created.`);
          setName('');
        },
        onError: (failure) => {
          if (isNameTaken(failure)) setError(`${failure.message}. Choose another name.`);
          else toast.error(`Could not create the board: ${failure.message}`);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="grid min-w-0 flex-1 basis-64 gap-2">
        <Label htmlFor={id}>Board name</Label>
        <Input
          id={id}
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Faculty of Law"
          maxLength={250}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      <Button type="submit" disabled={create.isPending}>
        <Plus aria-hidden="true" />
        {create.isPending ? 'Creating…' : 'Create board'}
      </Button>
      <div className="w-full">
        <FieldError id={`${id}-error`} message={error} />
      </div>
    </form>
  );
}

function BoardItem({
  board,
  boards,
  workspace,
}: {
  board: BoardSummary;
  boards: BoardSummary[];
  workspace: OwnedWorkspace;
}) {
  const [renaming, setRenaming] = useState(false);
  const [removing, setRemoving] = useState(false);
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-lg border p-3">
      <div className="min-w-0 flex-1 basis-56">
        <Link
          to={ownerPaths.board(board.id)}
          className="font-semibold text-primary underline-offset-4 hover:underline"
        >
          {board.name}
        </Link>
        <p className="text-sm text-muted-foreground">
          {plural(board.members, 'member', 'members')} ·{' '}
          {plural(board.admins, 'board admin', 'board admins')} ·{' '}
          {plural(board.courses, 'course', 'courses')}
        </p>
      </div>
      <div className="flex gap-2">
        <Button
          size="sm"
          variant="outline"
          onClick={() => setRenaming(true)}
          aria-label={`Rename ${board.name}`}
        >
          <Pencil aria-hidden="true" />
          Rename
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setRemoving(true)}
          aria-label={`Remove ${board.name}`}
        >
          <Trash2 aria-hidden="true" />
          Remove
        </Button>
      </div>
      {renaming && (
        <RenameDialog
          board={board}
          organizationId={workspace.organizationId}
          onClose={() => setRenaming(false)}
        />
      )}
      {removing && (
        <RemoveDialog
          board={board}
          boards={boards}
          workspace={workspace}
          onClose={() => setRemoving(false)}
        />
      )}
    </li>
  );
}

function RenameDialog({
  board,
  organizationId,
  onClose,
}: {
  board: BoardSummary;
  organizationId: string;
  onClose: () => void;
}) {
  const rename = useRenameBoard();
  const [name, setName] = useState(board.name);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = boardNameSchema.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the name.');
      return;
    }
    setError(null);
    rename.mutate(
      { organizationId, boardId: board.id, name: parsed.data.name },
      {
        onSuccess: (renamed) => {
          toast.success(`${board.name} is now ${renamed.name}.`);
          onClose();
        },
        onError: (failure) => {
          if (isNameTaken(failure)) setError(`${failure.message}. Choose another name.`);
          else toast.error(`Could not rename the board: ${failure.message}`);
        },
      },
    );
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Rename {board.name}</DialogTitle>
            <DialogDescription>
              Members, admins and distributed courses stay with the board.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={id}>New name</Label>
            <Input
              id={id}
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={250}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            <FieldError id={`${id}-error`} message={error} />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={rename.isPending}>
              {rename.isPending ? 'Renaming…' : 'Rename board'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

const WHOLE_ORGANIZATION = 'whole-organization';

function RemoveDialog({
  board,
  boards,
  workspace,
  onClose,
}: {
  board: BoardSummary;
  boards: BoardSummary[];
  workspace: OwnedWorkspace;
  onClose: () => void;
}) {
  const remove = useRemoveBoard();
  const [destination, setDestination] = useState(WHOLE_ORGANIZATION);
  const id = useId();
  const others = boards.filter((b) => b.id !== board.id);
  const destinationName =
    others.find((b) => b.id === destination)?.name ?? `the whole of ${workspace.organizationName}`;

  // Awaited rather than given callbacks: the board's row, and this dialog with it, leaves the
  // list as soon as the boards are read again, and a mutate() callback would not run then.
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const result = await remove.mutateAsync({
        organizationId: workspace.organizationId,
        boardId: board.id,
        moveMembersTo: destination === WHOLE_ORGANIZATION ? null : destination,
      });
      toast.success(
        result.moved > 0
          ? `${board.name} removed; ${plural(result.moved, 'membership', 'memberships')} moved to ${destinationName}.`
          : `${board.name} removed.`,
      );
      onClose();
    } catch (failure) {
      toast.error(`Could not remove the board: ${(failure as Error).message}`);
    }
  }

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Remove {board.name}?</DialogTitle>
            <DialogDescription>
              {board.courses > 0
                ? `Its ${plural(board.courses, 'course stays', 'courses stay')} in the organization and ${board.courses === 1 ? 'is' : 'are'} no longer distributed to this board; enrolments are kept.`
                : 'No course is distributed to it.'}
            </DialogDescription>
          </DialogHeader>
          {board.admins > 0 ? (
            <Notice tone="info">
              {board.name} still has {plural(board.admins, 'board admin', 'board admins')}. An admin
              of this board governs it alone, so remove them first on{' '}
              <Link to={ownerPaths.board(board.id)} className="font-medium underline">
                the board&rsquo;s page
              </Link>
              .
            </Notice>
          ) : board.members > 0 ? (
            <div className="grid gap-2">
              <Label htmlFor={id}>Move its {plural(board.members, 'member', 'members')} to</Label>
              <select
                id={id}
                value={destination}
                onChange={(event) => setDestination(event.target.value)}
                className="h-9 w-full rounded-md border bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <option value={WHOLE_ORGANIZATION}>The whole organization (no board)</option>
                {others.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.name}
                  </option>
                ))}
              </select>
              <p className="text-sm text-muted-foreground">They keep their roles and enrolments.</p>
            </div>
          ) : (
            <p className="text-sm">Nobody belongs to this board.</p>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="destructive"
              disabled={remove.isPending || board.admins > 0}
            >
              {remove.isPending ? 'Removing…' : 'Remove board'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
