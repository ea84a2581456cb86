import { lazy, Suspense, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router';
import { loadClassMerge } from '@/lib/utils';
import { hasDataRoomAccess } from './grant-store';

// The dialog is only needed after a click, so it is not part of every page's first load
// (nor is the class merging its primitives rely on, decision 0190).
const loadAccessDialog = () =>
  Promise.all([import('./access-dialog'), loadClassMerge()]).then(([module]) => module);

const AccessDialog = lazy(() =>
  loadAccessDialog().then((module) => ({ default: module.AccessDialog })),
);

export function preloadAccessDialog(): void {
  void loadAccessDialog();
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
