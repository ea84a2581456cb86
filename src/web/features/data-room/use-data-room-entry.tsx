import { lazy, Suspense, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router';
import { hasDataRoomAccess } from './grant-store';

// The dialog is only needed after a click, so it is not part of every page's first load.
const AccessDialog = lazy(() =>
  import('./access-dialog').then((module) => ({ default: module.AccessDialog })),
);

export function preloadAccessDialog(): void {
  void import('./access-dialog');
}

/**
 * Shared by the header button and the home page card: a verified visitor goes straight to
 * the data room, anyone else gets the PIN dialog.
 */
export function useDataRoomEntry(): {
  enter: (event: SyntheticEvent<HTMLElement>) => void;
  dialog: ReactNode;
} {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  // The dialog has no Radix trigger (it opens from two places), so it is told where focus
  // returns when it closes.
  const [opener, setOpener] = useState<HTMLElement | null>(null);

  function enter(event: SyntheticEvent<HTMLElement>) {
    if (hasDataRoomAccess()) {
      navigate('/data-room');
      return;
    }
    setOpener(event.currentTarget);
    setRequested(true);
    setOpen(true);
  }

  const dialog = requested ? (
    <Suspense fallback={null}>
      <AccessDialog open={open} onOpenChange={setOpen} returnFocusTo={opener} />
    </Suspense>
  ) : null;
  return { enter, dialog };
}
