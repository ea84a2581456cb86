/**
 * 'Data Room Access': the PIN is checked by the server, which answers with a grant kept for
 * this browser session. Paste and password managers work in the field (WCAG 2.2 accessible
 * authentication); Enter submits.
 */
import { useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { LockKeyhole } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { checkPin } from './api/check-pin';
import { saveGrant } from './grant-store';

export const PIN_MAX_LENGTH = 20;

export const accessTexts = {
  title: 'Data Room Access',
  description:
    'This area contains confidential investor documentation. Please enter the access PIN to continue.',
  placeholder: 'Enter PIN',
  cancel: 'Cancel',
  submit: 'Access Data Room',
  verifying: 'Verifying...',
  footer: 'For qualified investors only. Unauthorized access is prohibited.',
  granted: 'Access granted to Data Room',
  wrongPin: 'Incorrect PIN. Please try again.',
};

export function AccessDialog({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opened the dialog; it gets focus back on close while it is on the page. */
  returnFocusTo: HTMLElement | null;
}) {
  const navigate = useNavigate();
  const [pin, setPin] = useState('');
  const [verifying, setVerifying] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const canSubmit = pin.trim() !== '' && !verifying;

  function close() {
    setPin('');
    onOpenChange(false);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit) return;
    setVerifying(true);
    const result = await checkPin(pin.trim());
    setVerifying(false);
    if (result.ok) {
      saveGrant(result.grant);
      toast.success(accessTexts.granted);
      close();
      navigate('/data-room');
      return;
    }
    if (result.reason === 'wrong') toast.error(accessTexts.wrongPin);
    else toast.error(result.message);
    if (result.reason !== 'unavailable') setPin('');
    inputRef.current?.focus();
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
        else onOpenChange(true);
      }}
    >
      <DialogContent
        className="sm:max-w-md"
        data-testid="data-room-access-dialog"
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo?.isConnected) return;
          event.preventDefault();
          returnFocusTo.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2 max-sm:justify-center">
            <LockKeyhole className="size-5 text-primary" aria-hidden="true" />
            {accessTexts.title}
          </DialogTitle>
          <DialogDescription>{accessTexts.description}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          {/* Password managers file a saved PIN under a user name; this one never changes. */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value="Lyceum data room"
            readOnly
            hidden
          />
          <div className="grid gap-2">
            <Label htmlFor="data-room-pin">Access PIN</Label>
            <Input
              ref={inputRef}
              id="data-room-pin"
              name="pin"
              type="password"
              placeholder={accessTexts.placeholder}
              maxLength={PIN_MAX_LENGTH}
              autoComplete="current-password"
              value={pin}
              readOnly={verifying}
              onChange={(event) => setPin(event.target.value)}
              autoFocus
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={close}>
              {accessTexts.cancel}
            </Button>
            <Button type="submit" disabled={!canSubmit} aria-busy={verifying}>
              {verifying ? accessTexts.verifying : accessTexts.submit}
            </Button>
          </DialogFooter>
        </form>
        <p className="border-t pt-4 text-center text-xs text-muted-foreground">
          {accessTexts.footer}
        </p>
      </DialogContent>
    </Dialog>
  );
}
