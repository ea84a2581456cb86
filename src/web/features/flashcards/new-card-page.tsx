/**
 * A new card: typed, or started from a note (`?note=<id>`) or a highlight (`?highlight=<id>`),
 * in a deck of the learner's (`?deck=<id>` picks it; a highlight's course deck is the default).
 */
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { useCreateCard } from './api/cards';
import { useCardSource, type CardSource } from './api/card-source';
import { useDecks, type Deck } from './api/decks';
import { CardFields } from './card-fields';
import { checkSides, type CardSides } from './card-sides';
import { flashcardPaths } from './flashcard-paths';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function NewCardPage() {
  const { userId } = useAppSession();
  const [params] = useSearchParams();
  const noteId = params.get('note');
  const highlightId = params.get('highlight');
  const kind = noteId ? 'note' : highlightId ? 'highlight' : null;
  const sourceId = noteId ?? highlightId;
  const validSource = sourceId === null || uuid.test(sourceId);
  const source = useCardSource(userId, validSource ? kind : null, validSource ? sourceId : null);
  const decks = useDecks(userId);

  const title =
    kind === 'note'
      ? 'Card from a note'
      : kind === 'highlight'
        ? 'Card from a highlight'
        : 'New card';
  return (
    <AppPage title={title} back={{ to: flashcardPaths.decks(), label: 'Flashcards' }}>
      {!validSource ? (
        <EmptyState action={<Link to={flashcardPaths.newCard()}>Type a card instead</Link>}>
          That {kind} address is not valid.
        </EmptyState>
      ) : decks.isPending || (kind && source.isPending) ? (
        <LoadingBlock label="Loading…" />
      ) : decks.isError ? (
        <LoadError
          message={`Could not load your decks: ${decks.error.message}`}
          onRetry={() => void decks.refetch()}
        />
      ) : kind && source.isError ? (
        <LoadError message={source.error.message} onRetry={() => void source.refetch()} />
      ) : (
        <NewCardForm
          decks={decks.data}
          source={kind ? (source.data ?? null) : null}
          preferredDeck={params.get('deck')}
        />
      )}
    </AppPage>
  );
}

function NewCardForm({
  decks,
  source,
  preferredDeck,
}: {
  decks: Deck[];
  source: CardSource | null;
  preferredDeck: string | null;
}) {
  const { userId } = useAppSession();
  const navigate = useNavigate();
  const createCard = useCreateCard(userId);
  const initialDeck =
    decks.find((d) => d.id === preferredDeck)?.id ??
    decks.find((d) => source?.courseId && d.courseId === source.courseId)?.id ??
    decks[0]?.id ??
    '';
  const [deckId, setDeckId] = useState(initialDeck);
  const [sides, setSides] = useState<CardSides>({
    front: source?.front ?? '',
    back: source?.back ?? '',
  });
  const [problems, setProblems] = useState<ReturnType<typeof checkSides>>({});
  const [saved, setSaved] = useState(0);

  const save = (another: boolean) => {
    const found = checkSides(sides);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    createCard.mutate(
      {
        deckId: deckId || null,
        front: sides.front.trim(),
        back: sides.back.trim(),
        source: source?.kind ?? 'typed',
        noteId: source?.kind === 'note' ? source.id : null,
        highlightId: source?.kind === 'highlight' ? source.id : null,
      },
      {
        onSuccess: () => {
          toast.success('Card added.');
          if (another) {
            setSides({ front: '', back: '' });
            setSaved((n) => n + 1);
          } else {
            void navigate(deckId ? flashcardPaths.deck(deckId) : flashcardPaths.decks());
          }
        },
        onError: (error) => toast.error(`Could not add the card: ${error.message}`),
      },
    );
  };

  return (
    <Section title="The card" id="card">
      <div className="grid gap-4">
        {source?.kind === 'highlight' && (
          <Notice tone="info">
            The highlighted passage is on the back. Write the question it answers on the front.
          </Notice>
        )}
        <div className="grid gap-1.5">
          <Label htmlFor="card-deck">Deck</Label>
          <NativeSelect id="card-deck" value={deckId} onChange={(e) => setDeckId(e.target.value)}>
            {decks.length === 0 && <option value="">My cards (made for you)</option>}
            {decks.map((deck) => (
              <option key={deck.id} value={deck.id}>
                {deck.name}
                {deck.courseTitle ? ` — ${deck.courseTitle}` : ''}
              </option>
            ))}
          </NativeSelect>
        </div>
        <CardFields key={saved} value={sides} onChange={setSides} problems={problems} />
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => save(false)} disabled={createCard.isPending}>
            Add card
          </Button>
          {!source && (
            <Button variant="outline" onClick={() => save(true)} disabled={createCard.isPending}>
              Add and make another
            </Button>
          )}
        </div>
      </div>
    </Section>
  );
}
