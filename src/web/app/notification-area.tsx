import { useEffect } from 'react';
import type { ToasterProps } from 'sonner';
import { Toaster } from '@/components/ui/sonner';
import { registerServiceWorker } from './offline/service-worker';

/**
 * The toasts, and the installed app's worker whose "new version" notice is one of them. Both
 * load after the page is interactive (DeferredToaster), outside every page's first load.
 */
export function NotificationArea(props: ToasterProps) {
  useEffect(() => {
    // Without a worker the site still works online; nothing to tell the visitor.
    registerServiceWorker().catch(() => undefined);
  }, []);
  return <Toaster {...props} />;
}
