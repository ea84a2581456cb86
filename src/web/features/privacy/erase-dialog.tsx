/**
 * Confirms an erasure before it runs: what goes, what the law keeps, and that it cannot be
 * undone. Focus goes to Cancel (the safe choice) and back to the button that opened it.
 */
import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

export function EraseDialog({
  returnFocus,
  pending,
  onCancel,
  onErase,
}: {
  returnFocus: HTMLElement | null;
  pending: boolean;
  onCancel: () => void;
  onErase: () => void;
}) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open
      onOpenChange={(next) => {
        if (!next) onCancel();
      }}
    >
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          cancel.current?.focus();
        }}
        onCloseAutoFocus={(event) => {
          if (returnFocus?.isConnected) {
            event.preventDefault();
            returnFocus.focus();
          }
        }}
      >
        <DialogHeader>
          <DialogTitle>Erase this account?</DialogTitle>
          <DialogDescription>
            Everything Lyceum holds about the person is deleted: their account, profile, learning
            records, notes, cards, coach transcripts, consent and stored files. Records of other
            people that name them stop naming them. The audit log keeps its entries for its legal
            period with the recorded values erased, and this request is kept as the record that it
            was carried out. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button ref={cancel} type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" disabled={pending} onClick={onErase}>
            {pending ? 'Erasing…' : 'Erase account'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
