/** A delete button that asks first, says what will go with it, and shows the pending state. */
import { useState, type ReactNode } from 'react';
import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';

export function ConfirmDelete({
  label,
  title,
  description,
  pending,
  onConfirm,
  triggerText = 'Delete',
}: {
  /** The trigger's accessible name, e.g. "Delete module “Lungs”". */
  label: string;
  title: string;
  description: ReactNode;
  pending: boolean;
  /** Runs the deletion; resolves when it is done (the dialog then closes). */
  onConfirm: () => Promise<unknown>;
  triggerText?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" aria-label={label} className="text-destructive">
          <Trash2 aria-hidden="true" />
          <span className="max-sm:sr-only">{triggerText}</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep it</Button>
          </DialogClose>
          <Button
            variant="destructive"
            disabled={pending}
            onClick={() => {
              void onConfirm()
                .then(() => setOpen(false))
                .catch(() => undefined);
            }}
          >
            {pending ? 'Deleting…' : 'Delete'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
