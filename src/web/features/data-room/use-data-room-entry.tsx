import { lazy, Suspense, useState, type ReactNode } from 'react';
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
export function useDataRoomEntry(): { enter: () => void; dialog: ReactNode } {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);

  function enter() {
    if (hasDataRoomAccess()) {
      navigate('/data-room');
      return;
    }
    setRequested(true);
    setOpen(true);
  }

  const dialog = requested ? (
    <Suspense fallback={null}>
      <AccessDialog open={open} onOpenChange={setOpen} />
    </Suspense>
  ) : null;
  return { enter, dialog };
}
