/**
 * The learner's notes, newest first, searched with Postgres full-text search (title, tags and
 * text; the address keeps the search) and filtered by tag.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Plus, Search } from 'lucide-react';
import { routePath } from '@common/routes';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useAppSession } from '@/lib/app-session';
import { useNotes } from './api/notes';

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function NotesPage() {
  const { userId } = useAppSession();
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const tag = params.get('tag') ?? '';
  const [text, setText] = useState(search);
  const notes = useNotes(userId, search, tag);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams(params);
    if (text.trim()) next.set('q', text.trim());
    else next.delete('q');
    setParams(next);
  };
  const setTag = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('tag', value);
    else next.delete('tag');
    setParams(next);
  };

  return (
    <AppPage
      title="Notes"
      intro="Your notes in Markdown, linked to courses, lessons and highlights. Only you see them."
      wide
      actions={
        <Button asChild>
          <Link to="/app/notes/new">
            <Plus aria-hidden="true" />
            New note
          </Link>
        </Button>
      }
    >
      <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <div className="grid min-w-0 flex-1 gap-1.5">
          <Label htmlFor="notes-search">Search notes</Label>
          <Input
            id="notes-search"
            type="search"
            value={text}
            placeholder="Words in the title, tags or text"
            onChange={(event) => setText(event.target.value)}
          />
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>
      {tag && (
        <p className="text-sm">
          Tagged <Badge variant="secondary">{tag}</Badge>{' '}
          <Button variant="link" size="sm" onClick={() => setTag('')}>
            Show all tags
          </Button>
        </p>
      )}
      <Section title={search ? `Notes matching “${search}”` : 'Your notes'} id="notes">
        {notes.isPending ? (
          <LoadingBlock label="Loading your notes…" />
        ) : notes.isError ? (
          <LoadError
            message={`Could not load your notes: ${notes.error.message}`}
            onRetry={() => void notes.refetch()}
          />
        ) : notes.data.length === 0 ? (
          <EmptyState
            action={
              <Button asChild size="sm">
                <Link to="/app/notes/new">Write a note</Link>
              </Button>
            }
          >
            {search || tag ? 'No note matches.' : 'You have no notes yet.'}
          </EmptyState>
        ) : (
          <ul className="divide-y">
            {notes.data.map((note) => (
              <li key={note.id} className="py-3">
                <Link
                  to={routePath('/app/notes/:noteId', { noteId: note.id })}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {note.title.trim() || 'Untitled note'}
                </Link>
                <p className="line-clamp-2 text-sm text-muted-foreground">
                  {note.body.slice(0, 300) || 'Empty'}
                </p>
                <div className="mt-1 flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <span>Edited {dateTime.format(new Date(note.updatedAt))}</span>
                  {note.pending && <Badge variant="outline">Waiting to sync</Badge>}
                  {note.courseTitle && <span>· {note.courseTitle}</span>}
                  {note.tags.map((t) => (
                    <Button
                      key={t}
                      variant="outline"
                      size="sm"
                      className="h-6 px-2 text-xs"
                      aria-label={`Show notes tagged ${t}`}
                      onClick={() => setTag(t)}
                    >
                      {t}
                    </Button>
                  ))}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </AppPage>
  );
}
