/**
 * Asked before signing out while ratings or note changes made offline still wait on this
 * device: signing out deletes the account's offline copy, queue included (decisions 0181, 0182).
 */
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { plural } from '@/lib/plural';

export function UnsentChangesDialog({
  waiting,
  onStay,
  onSignOut,
}: {
  waiting: number;
  onStay: () => void;
  onSignOut: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onStay()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Changes not sent yet</DialogTitle>
          <DialogDescription>
            {plural(waiting, 'change', 'changes')} made offline (ratings, notes){' '}
            {waiting === 1 ? 'has' : 'have'} not reached Lyceum yet. Signing out deletes{' '}
            {waiting === 1 ? 'it' : 'them'} from this device with everything kept for offline study.
            Stay signed in and go online to send {waiting === 1 ? 'it' : 'them'} first.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onStay}>
            Stay signed in
          </Button>
          <Button variant="destructive" onClick={onSignOut}>
            Sign out and delete {waiting === 1 ? 'it' : 'them'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
