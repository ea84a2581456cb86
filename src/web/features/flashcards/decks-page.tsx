/**
 * The learner's flashcards: every deck with what is due, new and in it, a way to review all
 * that is due, a new deck and a new card.
 */
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ChartColumn, Layers, Plus, PlayCircle } from 'lucide-react';
import { DEFAULT_RETENTION } from '@common/flashcards';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import { useCreateDeck, useDeckCourses, useDecks } from './api/decks';
import { DeckForm } from './deck-form';
import { flashcardPaths } from './flashcard-paths';
import { formatDue } from './flashcard-format';
import { plural } from '@/lib/plural';

export function DecksPage() {
  const { userId } = useAppSession();
  const decks = useDecks(userId);
  const courses = useDeckCourses(userId);
  const createDeck = useCreateDeck(userId);
  const navigate = useNavigate();
  const dueTotal = decks.data?.reduce((sum, deck) => sum + deck.due, 0) ?? 0;

  return (
    <AppPage
      title="Flashcards"
      intro="Cards come back just before you would forget them (FSRS scheduling)."
      wide
      actions={
        <>
          <Button asChild variant={dueTotal > 0 ? 'default' : 'outline'}>
            <Link to={flashcardPaths.reviewAll()}>
              <PlayCircle aria-hidden="true" />
              Review all due ({dueTotal})
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={flashcardPaths.newCard()}>
              <Plus aria-hidden="true" />
              New card
            </Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={flashcardPaths.statistics()}>
              <ChartColumn aria-hidden="true" />
              Statistics
            </Link>
          </Button>
        </>
      }
    >
      <Section title="Decks" id="decks">
        {decks.isPending ? (
          <LoadingBlock label="Loading your decks…" />
        ) : decks.isError ? (
          <LoadError
            message={`Could not load your decks: ${decks.error.message}`}
            onRetry={() => void decks.refetch()}
          />
        ) : decks.data.length === 0 ? (
          <EmptyState>You have no decks yet. Make one below, then add cards to it.</EmptyState>
        ) : (
          <ul className="divide-y">
            {decks.data.map((deck) => (
              <li key={deck.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <Link
                    to={flashcardPaths.deck(deck.id)}
                    className="inline-flex items-center gap-2 font-medium text-primary underline-offset-4 hover:underline"
                  >
                    <Layers aria-hidden="true" className="size-4" />
                    {deck.name}
                  </Link>
                  <p className="text-sm text-muted-foreground">
                    {deck.courseTitle ?? 'Personal deck'} · {plural(deck.total, 'card', 'cards')} ·{' '}
                    {deck.new} new
                    {deck.due === 0 && deck.nextDue ? ` · next ${formatDue(deck.nextDue)}` : ''}
                  </p>
                </div>
                <Button asChild size="sm" variant={deck.due > 0 ? 'default' : 'outline'}>
                  <Link
                    to={flashcardPaths.reviewDeck(deck.id)}
                    aria-label={`Review ${deck.name}: ${deck.due} due`}
                  >
                    {deck.due} due
                  </Link>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section
        title="New deck"
        id="new-deck"
        description="A deck for one of your courses, or a personal one."
      >
        <DeckForm
          initial={{
            name: '',
            description: '',
            courseId: null,
            desiredRetention: DEFAULT_RETENTION,
          }}
          courses={courses.data ?? []}
          submitLabel="Create deck"
          pending={createDeck.isPending}
          onSubmit={(input) =>
            createDeck.mutate(input, {
              onSuccess: (id) => {
                toast.success(`Deck “${input.name}” created.`);
                void navigate(flashcardPaths.deck(id));
              },
              onError: (error) => toast.error(`Could not create the deck: ${error.message}`),
            })
          }
        />
      </Section>
    </AppPage>
  );
}
