import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';

export interface Credential {
  id: string;
  /** What the person calls it: a key's name, a phone number. */
  name: string;
  /** When it was added, and anything else worth knowing about it. */
  detail: string;
}

export const addedOn = (iso: string) =>
  `Added ${new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' })}`;

/** The account's passkeys, security keys or phone numbers, each with its Remove button. */
export function CredentialList({
  label,
  items,
  busy,
  onRemove,
}: {
  label: string;
  items: Credential[];
  busy: boolean;
  onRemove: (item: Credential) => void;
}) {
  return (
    <ul className="mt-4 divide-y rounded-md border" aria-label={label}>
      {items.map((item) => (
        <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
          <div className="text-sm">
            <p className="font-medium">{item.name}</p>
            <p className="text-muted-foreground">{item.detail}</p>
          </div>
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() => onRemove(item)}
            aria-label={`Remove ${item.name}`}
          >
            <Trash2 aria-hidden="true" />
            Remove
          </Button>
        </li>
      ))}
    </ul>
  );
}
