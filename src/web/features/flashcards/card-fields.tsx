/**
 * A card's two sides, edited as Markdown with a preview through the one safe renderer. Used
 * by the new-card screen, the deck's card list and the review screen's edit dialog.
 */
import { useId, useState } from 'react';
import { MarkdownDocument } from '@/components/markdown-document';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import type { CardSides } from './card-sides';

export function CardFields({
  value,
  onChange,
  problems = {},
}: {
  value: CardSides;
  onChange: (next: CardSides) => void;
  problems?: Partial<Record<keyof CardSides, string>>;
}) {
  const id = useId();
  const [preview, setPreview] = useState(false);
  return (
    <div className="grid gap-4">
      <div className="flex justify-end">
        <Button
          type="button"
          size="sm"
          variant="outline"
          aria-pressed={preview}
          onClick={() => setPreview((on) => !on)}
        >
          {preview ? 'Edit' : 'Preview'}
        </Button>
      </div>
      {(['front', 'back'] as const).map((side) => (
        <div key={side} className="grid gap-1.5">
          <Label htmlFor={`${id}-${side}`}>
            {side === 'front' ? 'Front (question)' : 'Back (answer)'}
          </Label>
          {preview ? (
            <div
              id={`${id}-${side}`}
              className="min-h-20 rounded-md border bg-background p-3"
              aria-label={`${side} preview`}
            >
              <MarkdownDocument text={value[side] || '*Empty*'} />
            </div>
          ) : (
            <Textarea
              id={`${id}-${side}`}
              value={value[side]}
              rows={side === 'front' ? 3 : 5}
              aria-invalid={problems[side] ? true : undefined}
              aria-describedby={problems[side] ? `${id}-${side}-error` : undefined}
              onChange={(event) => onChange({ ...value, [side]: event.target.value })}
            />
          )}
          {problems[side] && (
            <p id={`${id}-${side}-error`} className="text-sm text-destructive">
              {problems[side]}
            </p>
          )}
        </div>
      ))}
      <p className="text-xs text-muted-foreground">Markdown works on both sides.</p>
    </div>
  );
}
