/**
 * What both readers show for highlights (decision 0167): the bar that turns the learner's
 * selection into a highlight (colour, an optional note) and the list of their highlights, each
 * with the way back to its place, to a note or a flashcard made from it, and deletion. The
 * viewers differ only in how they find a selection and a place.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { Highlighter, Layers, NotebookPen, Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { highlightColours, type Highlight, type HighlightColour } from './api/highlights';

export const highlightSwatch: Record<HighlightColour, string> = {
  yellow: 'bg-yellow-300',
  green: 'bg-green-300',
  blue: 'bg-sky-300',
  pink: 'bg-pink-300',
};

function colourName(colour: HighlightColour): string {
  return colour[0]!.toUpperCase() + colour.slice(1);
}

export interface HighlightDraft {
  colour: HighlightColour;
  note: string;
}

/** The bar under the pages or the book while text is selected. */
export function HighlightBar({
  place,
  text,
  draft,
  onDraftChange,
  saving,
  onSave,
  onCancel,
}: {
  /** Where the selection is, in words ("Page 3", "Chapter 2. Giants of the air"). */
  place: string;
  text: string;
  draft: HighlightDraft;
  onDraftChange: (draft: HighlightDraft) => void;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  const noteId = useId();
  return (
    <section
      aria-label="Highlight the selection"
      className="grid shrink-0 gap-2 border-t bg-background p-3"
    >
      <p className="line-clamp-2 text-sm" aria-live="polite">
        <Highlighter aria-hidden="true" className="mr-1 inline size-4" />
        {place}: “{text}”
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <fieldset className="flex items-center gap-1">
          <legend className="sr-only">Colour</legend>
          {highlightColours.map((option) => (
            <button
              key={option}
              type="button"
              aria-pressed={draft.colour === option}
              aria-label={colourName(option)}
              onClick={() => onDraftChange({ ...draft, colour: option })}
              className={`size-7 rounded-full ring-offset-2 ring-offset-background outline-none focus-visible:ring-[3px] focus-visible:ring-ring aria-pressed:ring-2 aria-pressed:ring-foreground ${highlightSwatch[option]}`}
            />
          ))}
        </fieldset>
        <div className="grid min-w-48 flex-1 gap-1">
          <label htmlFor={noteId} className="text-sm font-medium">
            Note (optional)
          </label>
          <Textarea
            id={noteId}
            rows={1}
            maxLength={20000}
            value={draft.note}
            onChange={(event) => onDraftChange({ ...draft, note: event.target.value })}
            className="min-h-9"
          />
        </div>
        <Button onClick={onSave} disabled={saving}>
          <Highlighter aria-hidden="true" />
          {saving ? 'Saving…' : 'Highlight'}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

/** The learner's highlights in this file, in the order they were made. */
export function HighlightList({
  highlights,
  placeOf,
  emptyText,
  onGoTo,
  onDelete,
}: {
  highlights: Highlight[];
  /** The label of the button that opens a highlight's place. */
  placeOf: (highlight: Highlight) => string;
  emptyText: string;
  onGoTo: (highlight: Highlight) => void;
  onDelete: (highlight: Highlight) => void;
}) {
  if (highlights.length === 0) {
    return <p className="p-2 text-sm text-muted-foreground">{emptyText}</p>;
  }
  return (
    <ul className="grid gap-2" aria-label="Your highlights">
      {highlights.map((highlight) => (
        <li key={highlight.id} className="grid gap-2 rounded-md border bg-card p-2 text-sm">
          <div className="flex items-start gap-2">
            <span
              aria-hidden="true"
              className={`mt-1 size-3 shrink-0 rounded-full ${highlightSwatch[highlight.colour]}`}
            />
            <p className="line-clamp-4 min-w-0">
              <span className="sr-only">{colourName(highlight.colour)} highlight: </span>
              {highlight.text}
            </p>
          </div>
          <div className="flex flex-wrap gap-1">
            <Button size="sm" variant="outline" onClick={() => onGoTo(highlight)}>
              {placeOf(highlight)}
            </Button>
            <Button asChild size="sm" variant="ghost">
              <Link to={`/app/notes/new?highlight=${highlight.id}`}>
                <NotebookPen aria-hidden="true" />
                Note<span className="sr-only"> from this highlight</span>
              </Link>
            </Button>
            <Button asChild size="sm" variant="ghost">
              <Link to={`/app/flashcards/new?highlight=${highlight.id}`}>
                <Layers aria-hidden="true" />
                Card<span className="sr-only"> from this highlight</span>
              </Link>
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onDelete(highlight)}
              aria-label={`Delete the highlight “${highlight.text.slice(0, 40)}”`}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
