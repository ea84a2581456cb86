/**
 * A review session, of one deck or of every due card: Space (or Enter) shows the answer, keys
 * 1–4 rate it Again, Hard, Good or Easy, U or Ctrl+Z undoes the last rating; the card can be
 * suspended or edited on the spot. Each rating is scheduled by the server (decision 0160); the
 * buttons show the interval each rating would give. A learning card that comes due within 20
 * minutes comes back in the same session. Offline (decision 0181) the session reviews the due
 * cards kept on this device; its ratings wait there and are sent when the connection returns.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Pause, Pencil, Undo2 } from 'lucide-react';
import { previewIntervals, ratings, type RatingValue } from '@common/flashcards';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { MarkdownDocument } from '@/components/markdown-document';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { rateCard, undoQueuedRating } from '@/lib/offline/rate-card';
import { useOnline } from '@/lib/use-online';
import { useRouteParams } from '@/lib/use-route-params';
import type { CardRow } from './api/cards';
import { useUpdateCard } from './api/cards';
import {
  LEARN_AHEAD_MINUTES,
  undoReview,
  useDueCards,
  useReviewDecks,
  type ReviewDeck,
} from './api/review';
import { CardFields } from './card-fields';
import { checkSides, type CardSides } from './card-sides';
import { flashcardPaths } from './flashcard-paths';
import { formatDue, stateLabel } from './flashcard-format';

export function ReviewPage() {
  const { userId } = useAppSession();
  const { deckId = null } = useRouteParams();
  const due = useDueCards(userId, deckId);
  const decks = useReviewDecks(userId);
  const online = useOnline();
  const deck = deckId ? decks.data?.find((d) => d.id === deckId) : undefined;
  const back = deckId
    ? { to: flashcardPaths.deck(deckId), label: deck ? deck.name : 'Deck' }
    : { to: flashcardPaths.decks(), label: 'Flashcards' };

  return (
    <AppPage title={deck ? `Review: ${deck.name}` : 'Review flashcards'} back={back}>
      {due.isPending || decks.isPending ? (
        <LoadingBlock label="Loading the cards that are due…" />
      ) : due.isError || decks.isError ? (
        <LoadError
          message={`Could not load your cards: ${(due.error ?? decks.error)?.message}`}
          onRetry={() => {
            void due.refetch();
            void decks.refetch();
          }}
        />
      ) : deckId && !deck ? (
        <EmptyState action={<Link to={flashcardPaths.decks()}>Your decks</Link>}>
          {online
            ? 'This deck does not exist, or is not yours.'
            : 'You are offline, and this deck’s cards are not kept on this device.'}
        </EmptyState>
      ) : (
        <>
          {!online && (
            <Notice tone="info">
              You are offline: reviewing the cards kept on this device. Your ratings are kept here
              and sent when you are back online.
            </Notice>
          )}
          <ReviewSession initial={due.data} decks={decks.data} />
        </>
      )}
    </AppPage>
  );
}

interface Rated {
  reviewId: string;
  /** Waiting on this device: undo takes it out of the queue. */
  queued: boolean;
  /** The card as it was before the rating. */
  before: CardRow;
  rating: RatingValue;
}

const learnAhead = () => Date.now() + LEARN_AHEAD_MINUTES * 60_000;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('[role="dialog"]') !== null
  );
}

function ReviewSession({ initial, decks }: { initial: CardRow[]; decks: ReviewDeck[] }) {
  const { userId } = useAppSession();
  const online = useOnline();
  const [queue, setQueue] = useState<CardRow[]>(initial);
  const [revealed, setRevealed] = useState(false);
  const [history, setHistory] = useState<Rated[]>([]);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const updateCard = useUpdateCard(userId);
  const answerRef = useRef<HTMLDivElement>(null);

  const card = queue[0];
  const retention = useMemo(() => new Map(decks.map((d) => [d.id, d.desiredRetention])), [decks]);
  const deckName = useMemo(() => new Map(decks.map((d) => [d.id, d.name])), [decks]);
  const intervals = useMemo(
    () => (card ? previewIntervals(card, retention.get(card.deck_id) ?? 0.9, new Date()) : null),
    [card, retention],
  );

  const reveal = useCallback(() => {
    if (!card || revealed) return;
    setRevealed(true);
    setAnnouncement('Answer shown. Rate it with 1 to 4.');
  }, [card, revealed]);

  const rate = useCallback(
    async (rating: RatingValue) => {
      if (!card || !revealed || busy) return;
      setBusy(true);
      try {
        const answer = await rateCard(userId, card, rating, retention.get(card.deck_id) ?? 0.9);
        const after: CardRow = { ...card, ...answer.card };
        setHistory((list) => [
          ...list,
          { reviewId: answer.reviewId, queued: answer.queued, before: card, rating },
        ]);
        setQueue((list) => {
          const rest = list.slice(1);
          return new Date(after.due).getTime() <= learnAhead() ? [...rest, after] : rest;
        });
        setRevealed(false);
        const label = ratings.find((r) => r.value === rating)!.label;
        setAnnouncement(
          `Rated ${label}. Next review ${formatDue(after.due)}.${answer.queued ? ' Kept on this device until you are back online.' : ''}`,
        );
      } catch (error) {
        toast.error(`The rating was not saved: ${(error as Error).message}`);
      } finally {
        setBusy(false);
      }
    },
    [card, revealed, busy, userId, retention],
  );

  const undo = useCallback(async () => {
    const last = history.at(-1);
    if (!last || busy) return;
    setBusy(true);
    try {
      const restored = last.queued
        ? (await undoQueuedRating(userId, last.reviewId, last.before), last.before)
        : await undoReview(last.reviewId);
      setHistory((list) => list.slice(0, -1));
      setQueue((list) => [
        { ...last.before, ...restored },
        ...list.filter((c) => c.id !== last.before.id),
      ]);
      setRevealed(false);
      setAnnouncement('Last rating undone. The card is shown again.');
    } catch (error) {
      toast.error(`Could not undo: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  }, [history, busy, userId]);

  const suspend = useCallback(() => {
    if (!card || busy) return;
    updateCard.mutate(
      { id: card.id, change: { suspended: true } },
      {
        onSuccess: () => {
          setQueue((list) => list.filter((c) => c.id !== card.id));
          setRevealed(false);
          toast.success('Card suspended. Unsuspend it from its deck.');
        },
        onError: (error) => toast.error(`Could not suspend the card: ${error.message}`),
      },
    );
  }, [card, busy, updateCard]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (editing || isTyping(event.target) || event.altKey || event.metaKey) return;
      if ((event.key === 'z' && event.ctrlKey) || (event.key === 'u' && !event.ctrlKey)) {
        event.preventDefault();
        void undo();
        return;
      }
      if (event.ctrlKey) return;
      if (event.key === ' ' || event.key === 'Enter') {
        // Enter on a focused button or link does what it says instead.
        if (
          event.key === 'Enter' &&
          event.target instanceof HTMLElement &&
          event.target.closest('a, button')
        )
          return;
        if (!revealed) {
          event.preventDefault();
          reveal();
        }
        return;
      }
      if (['1', '2', '3', '4'].includes(event.key) && revealed) {
        event.preventDefault();
        void rate(Number(event.key) as RatingValue);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editing, revealed, reveal, rate, undo]);

  useEffect(() => {
    if (revealed) answerRef.current?.scrollIntoView({ block: 'nearest' });
  }, [revealed]);

  const reviewed = history.length;
  return (
    <>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <span>
          {queue.length} to go · {reviewed} reviewed
        </span>
        <Button
          size="sm"
          variant="outline"
          onClick={() => void undo()}
          disabled={history.length === 0 || busy}
          aria-keyshortcuts="U Control+Z"
        >
          <Undo2 aria-hidden="true" />
          Undo last rating
        </Button>
      </div>
      {!card ? (
        <Section title="All done for now" id="done">
          <p>
            {reviewed > 0
              ? `You reviewed ${reviewed} ${reviewed === 1 ? 'card' : 'cards'} in this session.`
              : 'No card is due.'}{' '}
            Cards come back when they are due.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to={flashcardPaths.decks()}>Back to your decks</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={flashcardPaths.newCard()}>Make a card</Link>
            </Button>
          </div>
        </Section>
      ) : (
        <section
          aria-labelledby="card-heading"
          className="rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-6"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="card-heading" className="text-sm font-medium text-muted-foreground">
              {deckName.get(card.deck_id) ?? 'Card'} · {stateLabel(card.state)}
            </h2>
            <div className="flex gap-2">
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setEditing(true)}
                disabled={!online}
                title={online ? undefined : 'Edit the card when you are back online.'}
              >
                <Pencil aria-hidden="true" />
                Edit
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={suspend}
                disabled={busy || !online}
                title={online ? undefined : 'Suspend the card when you are back online.'}
              >
                <Pause aria-hidden="true" />
                Suspend
              </Button>
            </div>
          </div>
          <div className="mt-4 text-base" data-testid="card-front">
            <MarkdownDocument text={card.front} className="text-base" />
          </div>
          {revealed ? (
            <>
              <hr className="my-4" />
              <div ref={answerRef} data-testid="card-back">
                <MarkdownDocument text={card.back} className="text-base" />
              </div>
              <div
                role="group"
                aria-label="How well did you remember?"
                className="mt-6 grid grid-cols-2 gap-2 sm:grid-cols-4"
              >
                {ratings.map(({ value, label }) => (
                  <Button
                    key={value}
                    variant={value === 1 ? 'outline' : value === 3 ? 'default' : 'secondary'}
                    className="h-auto flex-col gap-0.5 py-2"
                    disabled={busy}
                    aria-keyshortcuts={String(value)}
                    onClick={() => void rate(value)}
                  >
                    <span>
                      {value} · {label}
                    </span>
                    <span className="text-xs font-normal opacity-80">{intervals?.[value]}</span>
                  </Button>
                ))}
              </div>
            </>
          ) : (
            <div className="mt-6">
              <Button onClick={reveal} aria-keyshortcuts="Space">
                Show answer
              </Button>
              <p className="mt-2 text-xs text-muted-foreground">
                Space shows the answer; then 1 Again, 2 Hard, 3 Good, 4 Easy; U undoes.
              </p>
            </div>
          )}
        </section>
      )}
      {card && editing && (
        <EditCardDialog
          key={card.id}
          card={card}
          onClose={() => setEditing(false)}
          onSaved={(sides) =>
            setQueue((list) => list.map((c) => (c.id === card.id ? { ...c, ...sides } : c)))
          }
        />
      )}
    </>
  );
}

function EditCardDialog({
  card,
  onClose,
  onSaved,
}: {
  card: CardRow;
  onClose: () => void;
  onSaved: (sides: CardSides) => void;
}) {
  const { userId } = useAppSession();
  const updateCard = useUpdateCard(userId);
  const [sides, setSides] = useState<CardSides>({ front: card.front, back: card.back });
  const [problems, setProblems] = useState<ReturnType<typeof checkSides>>({});

  const save = () => {
    const found = checkSides(sides);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    updateCard.mutate(
      { id: card.id, change: { front: sides.front.trim(), back: sides.back.trim() } },
      {
        onSuccess: () => {
          onSaved({ front: sides.front.trim(), back: sides.back.trim() });
          toast.success('Card saved.');
          onClose();
        },
        onError: (error) => toast.error(`Could not save the card: ${error.message}`),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit card</DialogTitle>
          <DialogDescription>Its schedule stays as it is.</DialogDescription>
        </DialogHeader>
        <CardFields value={sides} onChange={setSides} problems={problems} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} disabled={updateCard.isPending}>
            Save card
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
