/**
 * Asks why a data request is rejected (the person reads the reason) in a dialog with a
 * labelled field: focus moves into it and back to the Reject button, Escape cancels, and an
 * empty reason is refused under the field instead of being sent. Render it keyed by the
 * request, so each request starts with an empty reason.
 */
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

const MAX = 2000;

export function RejectDialog({
  open,
  requestLabel,
  returnFocus,
  pending,
  onCancel,
  onReject,
}: {
  open: boolean;
  requestLabel: string;
  /** The button that opened the dialog (Radix returns focus only to its own trigger). */
  returnFocus: HTMLElement | null;
  pending: boolean;
  onCancel: () => void;
  onReject: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setError('Say why the request is rejected: the person is told.');
      return;
    }
    if (text.length > MAX) {
      setError(`At most ${MAX.toLocaleString('en')} characters.`);
      return;
    }
    onReject(text);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) onCancel();
      }}
    >
      <DialogContent
        onCloseAutoFocus={(event) => {
          if (returnFocus?.isConnected) {
            event.preventDefault();
            returnFocus.focus();
          }
        }}
      >
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Reject the {requestLabel} request</DialogTitle>
            <DialogDescription>
              The person sees this reason with the outcome of their request.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`${id}-reason`}>Reason for rejecting</Label>
            <Textarea
              id={`${id}-reason`}
              value={reason}
              maxLength={MAX}
              rows={4}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => {
                setReason(e.target.value);
                setError(null);
              }}
            />
            {error && (
              <p id={`${id}-error`} className="text-sm text-destructive">
                {error}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onCancel}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={pending}>
              {pending ? 'Rejecting…' : 'Reject request'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
