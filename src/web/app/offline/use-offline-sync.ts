/**
 * Keeps the signed-in learner's device copy in step (decision 0181): sends the ratings made
 * offline when the app opens with a live session and whenever the connection returns, then
 * refreshes the lessons and cards kept on the device.
 */
import { useEffect } from 'react';
import { refreshKeptCopies } from '@/lib/offline/keep-offline';
import { deviceStoreSupported, rememberDeviceUser } from '@/lib/offline/device-store';
import { syncNow } from '@/lib/offline/offline-sync';

export function useOfflineSync(user: { id: string; email: string }, live: boolean): void {
  const { id, email } = user;
  useEffect(() => {
    if (!live || !deviceStoreSupported()) return;
    rememberDeviceUser({ id, email });
    let cancelled = false;
    const run = async () => {
      await syncNow(id);
      if (!cancelled && navigator.onLine) await refreshKeptCopies(id);
    };
    void run().catch(() => undefined);
    const onOnline = () => void run().catch(() => undefined);
    window.addEventListener('online', onOnline);
    return () => {
      cancelled = true;
      window.removeEventListener('online', onOnline);
    };
  }, [id, email, live]);
}
