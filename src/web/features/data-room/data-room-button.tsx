import { LockKeyhole } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { preloadAccessDialog, useDataRoomEntry } from './use-data-room-entry';

/** Header entry to the investor data room, highlighted while the visitor is in it. */
export function DataRoomButton({ active }: { active: boolean }) {
  const { enter, dialog } = useDataRoomEntry();
  return (
    <>
      <Button
        type="button"
        variant={active ? 'default' : 'outline'}
        size="sm"
        aria-current={active ? 'page' : undefined}
        onClick={enter}
        onPointerEnter={preloadAccessDialog}
        onFocus={preloadAccessDialog}
      >
        <LockKeyhole aria-hidden="true" />
        Data Room
      </Button>
      {dialog}
    </>
  );
}
