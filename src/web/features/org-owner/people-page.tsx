/**
 * Global user oversight: every user of the organization across its boards with all their
 * memberships, searched by name or address and paged on the server. The board filter starts
 * at the workspace's board (the workspace scope) and can be changed here.
 */
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Search } from 'lucide-react';
import { z } from 'zod';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Pager } from '@/components/ui/pager';
import { roleLabels } from '@/lib/app-session';
import { useBoards } from './api/get-boards';
import { PEOPLE_PAGE_SIZE, usePeople, type Person } from './api/get-people';
import { FieldError, OwnerOnly, plural, type OwnedWorkspace } from './owner-ui';

const ALL_BOARDS = 'all';

const filterSchema = z.object({
  q: z.string().trim().max(200, 'Search for at most 200 characters.'),
});

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page - 1 : 0;
}

export function PeoplePage() {
  return <OwnerOnly title="All users">{(workspace) => <People workspace={workspace} />}</OwnerOnly>;
}

function People({ workspace }: { workspace: OwnedWorkspace }) {
  const [params, setParams] = useSearchParams();
  const boards = useBoards(workspace.organizationId);
  const search = (params.get('q') ?? '').trim().slice(0, 200);
  const page = pageFrom(params);
  const boardParam = params.get('board') ?? workspace.boardId ?? ALL_BOARDS;
  const known = boards.data?.some((b) => b.id === boardParam) ?? false;
  const boardId = boardParam !== ALL_BOARDS && known ? boardParam : null;
  const people = usePeople(workspace.organizationId, search, boardId, page);
  const [draft, setDraft] = useState(search);
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();
  const boardSelectId = useId();

  function update(next: { q?: string; board?: string; page?: number }) {
    const values: Record<string, string> = {};
    const q = next.q ?? search;
    if (q) values.q = q;
    values.board = next.board ?? boardParam;
    if (next.page) values.page = String(next.page + 1);
    setParams(values);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = filterSchema.safeParse({ q: draft });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the search.');
      return;
    }
    setError(null);
    update({ q: parsed.data.q, page: 0 });
  }

  const total = people.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PEOPLE_PAGE_SIZE));
  const boardName = boards.data?.find((b) => b.id === boardId)?.name;

  return (
    <AppPage
      wide
      title="All users"
      intro={`Everyone in ${workspace.organizationName}, across its boards, with every membership they hold.`}
    >
      <form
        role="search"
        onSubmit={submit}
        noValidate
        className="grid gap-3 sm:grid-cols-[1fr_16rem_auto] sm:items-end"
      >
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={searchId}>Search by name or address</Label>
          <Input
            id={searchId}
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${searchId}-error` : undefined}
          />
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={boardSelectId}>Board</Label>
          <select
            id={boardSelectId}
            value={boardId ?? ALL_BOARDS}
            onChange={(event) => update({ board: event.target.value, page: 0 })}
            className="h-9 w-full rounded-md border bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <option value={ALL_BOARDS}>All boards</option>
            {(boards.data ?? []).map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          Search
        </Button>
        <div className="sm:col-span-3">
          <FieldError id={`${searchId}-error`} message={error} />
        </div>
      </form>
      <Section title={boardName ? `People of ${boardName}` : 'People'} id="people">
        {people.isPending ? (
          <LoadingBlock label="Loading people…" />
        ) : people.isError ? (
          <LoadError
            message={`Could not load the people: ${people.error.message}`}
            onRetry={() => void people.refetch()}
          />
        ) : people.data.people.length === 0 ? (
          <EmptyState
            action={
              search || boardId ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => {
                    setDraft('');
                    setParams({ board: ALL_BOARDS });
                  }}
                >
                  Show everyone
                </Button>
              ) : undefined
            }
          >
            {search
              ? `Nobody’s name or address contains “${search}”${boardName ? ` in ${boardName}` : ''}. Try a shorter or different word.`
              : boardName
                ? `Nobody belongs to ${boardName} yet. An organization admin adds members to a board.`
                : `Nobody belongs to ${workspace.organizationName} yet besides you.`}
          </EmptyState>
        ) : (
          <div className="grid gap-3">
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {plural(total, 'person', 'people')}
              {search ? ` matching “${search}”` : ''} · page {page + 1} of {pages}
            </p>
            <ul className="grid gap-2">
              {people.data.people.map((person) => (
                <PersonItem key={person.id} person={person} />
              ))}
            </ul>
            <Pager
              label="People pages"
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

function PersonItem({ person }: { person: Person }) {
  return (
    <li className="grid gap-2 rounded-lg border p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)] sm:gap-4">
      <div className="min-w-0">
        <p className="font-medium">{person.name}</p>
        <p className="text-sm break-all text-muted-foreground">{person.email}</p>
      </div>
      <ul
        className="flex flex-wrap content-start gap-1.5"
        aria-label={`Memberships of ${person.name}`}
      >
        {person.isOwner && (
          <li>
            <Badge>Owner</Badge>
          </li>
        )}
        {person.memberships.map((m) => (
          <li key={m.id}>
            <Badge
              variant={m.active ? 'secondary' : 'outline'}
              className="whitespace-normal text-left"
            >
              {m.role === 'org_admin' && m.boardId ? 'Board Admin' : roleLabels[m.role]} ·{' '}
              {m.boardName ?? 'whole organization'}
              {m.active ? '' : ' · deactivated'}
            </Badge>
          </li>
        ))}
      </ul>
    </li>
  );
}
