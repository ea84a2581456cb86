/**
 * One deck: its settings (name, course, desired retention), its cards with their state and
 * next review, each editable, suspendable and deletable, and the way to review or add cards.
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Pause, Pencil, Play, PlayCircle, Plus, Trash2 } from 'lucide-react';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { MarkdownDocument } from '@/components/markdown-document';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { useDeckCards, useDeleteCard, useUpdateCard, type CardRow } from './api/cards';
import { useDeckCourses, useDecks, useDeleteDeck, useUpdateDeck, type Deck } from './api/decks';
import { CardFields } from './card-fields';
import { checkSides, type CardSides } from './card-sides';
import { DeckForm } from './deck-form';
import { DeckTransfer } from './deck-transfer';
import { flashcardPaths } from './flashcard-paths';
import { formatDue, stateLabel } from './flashcard-format';
import { plural } from '@/lib/plural';

export function DeckPage() {
  const { userId } = useAppSession();
  const { deckId = '' } = useRouteParams();
  const decks = useDecks(userId);
  const deck = decks.data?.find((d) => d.id === deckId);

  return (
    <AppPage
      title={deck?.name ?? 'Deck'}
      intro={deck ? (deck.courseTitle ?? 'Personal deck') : undefined}
      back={{ to: flashcardPaths.decks(), label: 'Flashcards' }}
      wide
      actions={
        deck && (
          <>
            <Button asChild variant={deck.due > 0 ? 'default' : 'outline'}>
              <Link to={flashcardPaths.reviewDeck(deck.id)}>
                <PlayCircle aria-hidden="true" />
                Review ({deck.due} due)
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={flashcardPaths.newCard({ deck: deck.id })}>
                <Plus aria-hidden="true" />
                New card
              </Link>
            </Button>
          </>
        )
      }
    >
      {decks.isPending ? (
        <LoadingBlock label="Loading the deck…" />
      ) : decks.isError ? (
        <LoadError
          message={`Could not load the deck: ${decks.error.message}`}
          onRetry={() => void decks.refetch()}
        />
      ) : !deck ? (
        <EmptyState action={<Link to={flashcardPaths.decks()}>Your decks</Link>}>
          This deck does not exist, or is not yours.
        </EmptyState>
      ) : (
        <>
          <DeckCards deck={deck} />
          <DeckTransfer deck={deck} />
          <DeckSettings deck={deck} />
        </>
      )}
    </AppPage>
  );
}

function DeckCards({ deck }: { deck: Deck }) {
  const { userId } = useAppSession();
  const cards = useDeckCards(userId, deck.id);
  return (
    <Section
      title="Cards"
      id="cards"
      description={`${plural(deck.total, 'card', 'cards')} · ${deck.due} due · ${deck.new} new · ${deck.suspended} suspended`}
    >
      {cards.isPending ? (
        <LoadingBlock label="Loading the cards…" />
      ) : cards.isError ? (
        <LoadError
          message={`Could not load the cards: ${cards.error.message}`}
          onRetry={() => void cards.refetch()}
        />
      ) : cards.data.length === 0 ? (
        <EmptyState
          action={
            <Button asChild size="sm">
              <Link to={flashcardPaths.newCard({ deck: deck.id })}>Add a card</Link>
            </Button>
          }
        >
          This deck has no cards yet.
        </EmptyState>
      ) : (
        <ul className="divide-y">
          {cards.data.map((card) => (
            <CardItem key={card.id} card={card} />
          ))}
        </ul>
      )}
    </Section>
  );
}

function CardItem({ card }: { card: CardRow }) {
  const { userId } = useAppSession();
  const updateCard = useUpdateCard(userId);
  const deleteCard = useDeleteCard(userId);
  const [editing, setEditing] = useState(false);
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
          toast.success('Card saved.');
          setEditing(false);
        },
        onError: (error) => toast.error(`Could not save the card: ${error.message}`),
      },
    );
  };

  if (editing)
    return (
      <li className="py-3">
        <CardFields value={sides} onChange={setSides} problems={problems} />
        <div className="mt-3 flex gap-2">
          <Button size="sm" onClick={save} disabled={updateCard.isPending}>
            Save card
          </Button>
          <Button size="sm" variant="outline" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </div>
      </li>
    );

  return (
    <li className="grid gap-2 py-3 sm:grid-cols-[1fr_auto] sm:items-start">
      <div className="min-w-0">
        <MarkdownDocument text={card.front} className="[&_p]:my-1" />
        <p className="text-xs text-muted-foreground">
          {stateLabel(card.state)} · {card.suspended ? 'suspended' : `due ${formatDue(card.due)}`} ·{' '}
          {card.reps} reviews
          {card.suspended && (
            <Badge variant="outline" className="ml-2">
              Suspended
            </Badge>
          )}
        </p>
      </div>
      <div className="flex flex-wrap gap-1">
        <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
          <Pencil aria-hidden="true" />
          Edit<span className="sr-only"> card</span>
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={updateCard.isPending}
          onClick={() =>
            updateCard.mutate(
              { id: card.id, change: { suspended: !card.suspended } },
              { onError: (error) => toast.error(`Could not change the card: ${error.message}`) },
            )
          }
        >
          {card.suspended ? <Play aria-hidden="true" /> : <Pause aria-hidden="true" />}
          {card.suspended ? 'Unsuspend' : 'Suspend'}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={deleteCard.isPending}
          onClick={() => {
            if (!window.confirm('Delete this card and its review history?')) return;
            deleteCard.mutate(card.id, {
              onSuccess: () => toast.success('Card deleted.'),
              onError: (error) => toast.error(`Could not delete the card: ${error.message}`),
            });
          }}
        >
          <Trash2 aria-hidden="true" />
          Delete<span className="sr-only"> card</span>
        </Button>
      </div>
    </li>
  );
}

function DeckSettings({ deck }: { deck: Deck }) {
  const { userId } = useAppSession();
  const courses = useDeckCourses(userId);
  const updateDeck = useUpdateDeck(userId, deck.id);
  const deleteDeck = useDeleteDeck(userId);
  const navigate = useNavigate();
  const courseChoices = [
    ...(courses.data ?? []),
    ...(deck.courseId && !courses.data?.some((c) => c.id === deck.courseId)
      ? [{ id: deck.courseId, title: deck.courseTitle ?? 'This deck’s course' }]
      : []),
  ];
  return (
    <Section title="Deck settings" id="deck-settings">
      <DeckForm
        key={`${deck.id}-${courses.isSuccess}`}
        initial={{
          name: deck.name,
          description: deck.description,
          courseId: deck.courseId,
          desiredRetention: deck.desiredRetention,
        }}
        courses={courseChoices}
        submitLabel="Save deck"
        pending={updateDeck.isPending}
        onSubmit={(input) =>
          updateDeck.mutate(input, {
            onSuccess: () => toast.success('Deck saved.'),
            onError: (error) => toast.error(`Could not save the deck: ${error.message}`),
          })
        }
      />
      <div className="mt-6 border-t pt-4">
        <Button
          variant="destructive"
          disabled={deleteDeck.isPending}
          onClick={() => {
            if (
              !window.confirm(
                `Delete “${deck.name}” with its ${plural(deck.total, 'card', 'cards')}?`,
              )
            )
              return;
            deleteDeck.mutate(deck.id, {
              onSuccess: () => {
                toast.success('Deck deleted.');
                void navigate(flashcardPaths.decks());
              },
              onError: (error) => toast.error(`Could not delete the deck: ${error.message}`),
            });
          }}
        >
          <Trash2 aria-hidden="true" />
          Delete deck
        </Button>
      </div>
    </Section>
  );
}
