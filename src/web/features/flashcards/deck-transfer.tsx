/**
 * A deck's import and export (decision 0162): download its cards as CSV or as Anki's plain text,
 * and add cards from such a file after seeing what will be imported and what was skipped.
 */
import { useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import { Download, Upload } from 'lucide-react';
import { Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { downloadCsv } from '@/lib/csv';
import { downloadText } from '@/lib/download';
import { plural } from '@/lib/plural';
import { getAllDeckSides, useImportCards } from './api/cards';
import type { Deck } from './api/decks';
import {
  cardsToAnkiText,
  cardsToCsv,
  deckFileName,
  parseCardFile,
  type ParsedCardFile,
} from './card-transfer';

const SKIPPED_SHOWN = 10;

export function DeckTransfer({ deck }: { deck: Deck }) {
  const { userId } = useAppSession();
  const importCards = useImportCards(userId, deck.id);
  const [exporting, setExporting] = useState(false);
  const [fileError, setFileError] = useState<string>();
  const [ready, setReady] = useState<(ParsedCardFile & { fileName: string }) | null>(null);
  const [inputKey, setInputKey] = useState(0);

  const exportAs = async (format: 'csv' | 'anki') => {
    setExporting(true);
    try {
      const cards = await getAllDeckSides(deck.id);
      if (format === 'csv') downloadCsv(deckFileName(deck.name, 'csv'), cardsToCsv(cards));
      else
        downloadText(
          deckFileName(deck.name, 'txt'),
          cardsToAnkiText(cards),
          'text/plain;charset=utf-8',
        );
    } catch (error) {
      toast.error(`Could not export the deck: ${(error as Error).message}`);
    } finally {
      setExporting(false);
    }
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setReady(null);
    setFileError(undefined);
    if (!file) return;
    try {
      const text = await file.text();
      setReady({ ...parseCardFile(file.name, text, file.size), fileName: file.name });
    } catch (error) {
      setFileError((error as Error).message);
    }
  };

  const confirm = () => {
    if (!ready) return;
    importCards.mutate(ready.cards, {
      onSuccess: (count) => {
        toast.success(`${plural(count, 'card', 'cards')} imported into “${deck.name}”.`);
        setReady(null);
        setInputKey((key) => key + 1);
      },
      onError: (error) =>
        toast.error(`Nothing was imported: ${error.message}`, { duration: Infinity }),
    });
  };

  return (
    <Section
      title="Import and export"
      id="transfer"
      description="CSV with a front and a back column, or Anki's “Notes in Plain Text”."
    >
      <div className="grid gap-5">
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            disabled={exporting || deck.total === 0}
            onClick={() => void exportAs('csv')}
          >
            <Download aria-hidden="true" />
            Export as CSV
          </Button>
          <Button
            variant="outline"
            disabled={exporting || deck.total === 0}
            onClick={() => void exportAs('anki')}
          >
            <Download aria-hidden="true" />
            Export for Anki
          </Button>
        </div>
        <Field
          key={inputKey}
          label="Import cards from a file"
          type="file"
          accept=".csv,.txt,.tsv,text/csv,text/plain"
          hint="Imported cards start new (their history elsewhere is not imported); the deck's cards stay as they are."
          error={fileError}
          onChange={(event) => void choose(event)}
        />
        {ready && (
          <div className="grid gap-3" aria-live="polite">
            <Notice tone="info">
              <p>
                “{ready.fileName}” ({ready.format === 'csv' ? 'CSV' : 'Anki plain text'}):{' '}
                {plural(ready.cards.length, 'card', 'cards')} ready to import
                {ready.skipped.length > 0 &&
                  `; ${plural(ready.skipped.length, 'line', 'lines')} will be skipped`}
                .
              </p>
              {ready.skipped.length > 0 && (
                <ul className="mt-2 list-disc pl-5">
                  {ready.skipped.slice(0, SKIPPED_SHOWN).map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                  {ready.skipped.length > SKIPPED_SHOWN && (
                    <li>and {ready.skipped.length - SKIPPED_SHOWN} more.</li>
                  )}
                </ul>
              )}
            </Notice>
            <div className="flex flex-wrap gap-2">
              <Button onClick={confirm} disabled={importCards.isPending}>
                <Upload aria-hidden="true" />
                Import {plural(ready.cards.length, 'card', 'cards')}
              </Button>
              <Button
                variant="outline"
                onClick={() => {
                  setReady(null);
                  setInputKey((key) => key + 1);
                }}
              >
                Cancel
              </Button>
            </div>
          </div>
        )}
      </div>
    </Section>
  );
}
