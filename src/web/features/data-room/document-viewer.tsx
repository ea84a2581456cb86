/**
 * The document viewer: a dialog titled with the document's path, with download and full
 * screen. Choosing a path loads it; failure shows 'Error loading file content.' and is logged;
 * closing clears the selection.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Download, Maximize2, Minimize2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { cn } from '@/lib/utils';
import { fetchDocumentDownload, fetchDocumentText } from './api/data-room-queries';

// The Markdown renderer is the heaviest part of the room; load it when a document is opened.
const MarkdownDocument = lazy(() =>
  import('@/components/markdown-document').then((module) => ({ default: module.MarkdownDocument })),
);

export const viewerTexts = {
  loading: 'Loading...',
  error: 'Error loading file content.',
};

type ViewerState =
  | { path: string | null; status: 'loading' }
  | { path: string; status: 'loaded'; text: string }
  | { path: string; status: 'error' };

function useFullscreen(target: React.RefObject<HTMLElement | null>) {
  const [isFullscreen, setIsFullscreen] = useState(false);
  useEffect(() => {
    // Follow the browser: Esc or the browser's own controls also leave full screen.
    const sync = () => setIsFullscreen(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  async function toggle() {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await target.current?.requestFullscreen();
    } catch (error) {
      console.error('Full screen is not available', error);
    }
  }
  return { isFullscreen, toggle };
}

export function DocumentViewer({ path, onClose }: { path: string | null; onClose: () => void }) {
  const contentRef = useRef<HTMLDivElement>(null);
  const { isFullscreen, toggle } = useFullscreen(contentRef);
  const [loaded, setState] = useState<ViewerState>({ path: null, status: 'loading' });
  // A newly chosen document shows 'Loading...' at once, never the previous document.
  const state: ViewerState = loaded.path === path ? loaded : { path, status: 'loading' };
  const [downloading, setDownloading] = useState(false);

  useEffect(() => {
    if (!path) return;
    let current = true;
    fetchDocumentText(path).then(
      (text) => current && setState({ path, status: 'loaded', text }),
      (error: unknown) => {
        console.error(`Error loading data room document ${path}`, error);
        if (current) setState({ path, status: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [path]);

  function close() {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    onClose();
  }

  async function download() {
    if (!path) return;
    setDownloading(true);
    try {
      const text = await fetchDocumentDownload(path);
      const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = path.split('/').pop() ?? 'document.md';
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      console.error(`Error downloading data room document ${path}`, error);
      toast.error('The document could not be downloaded. Please try again.');
    } finally {
      setDownloading(false);
    }
  }

  return (
    <Dialog open={path !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent
        ref={contentRef}
        data-testid="document-viewer"
        data-fullscreen={isFullscreen ? 'true' : 'false'}
        className={cn(
          'flex flex-col gap-3',
          isFullscreen
            ? // The browser's full-screen style resets `transform`, not the `translate` property
              // Tailwind centres dialogs with: without these the viewer sits half off-screen.
              'top-0 left-0 h-screen max-h-none w-screen max-w-none translate-x-0 translate-y-0 rounded-none sm:max-w-none'
            : 'max-h-[80vh] sm:max-w-4xl',
        )}
      >
        <DialogHeader className="pr-8 text-left">
          <DialogTitle className="font-mono text-base break-all">{path}</DialogTitle>
          <DialogDescription className="sr-only">
            Confidential data room document, rendered from Markdown.
          </DialogDescription>
          <div className="flex flex-wrap gap-2 pt-1">
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={download}
              disabled={downloading || state.status !== 'loaded'}
            >
              <Download aria-hidden="true" />
              Download
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() => void toggle()}
              aria-pressed={isFullscreen}
            >
              {isFullscreen ? <Minimize2 aria-hidden="true" /> : <Maximize2 aria-hidden="true" />}
              {isFullscreen ? 'Exit full screen' : 'Full screen'}
            </Button>
          </div>
        </DialogHeader>
        {/* A plain scroll container rather than the ScrollArea primitive: its viewport cannot
            take focus, and keyboard users must be able to scroll a document without links. */}
        <div
          role="region"
          aria-label={`Content of ${path ?? 'the document'}`}
          tabIndex={0}
          data-testid="document-scroll-area"
          className={cn(
            'min-w-0 overflow-y-auto rounded-md border focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
            isFullscreen ? 'min-h-0 flex-1' : 'h-[60vh]',
          )}
        >
          <div
            className="px-4 py-3 sm:px-6"
            aria-live="polite"
            aria-busy={state.status === 'loading'}
          >
            {state.status === 'loading' && (
              <p className="py-8 text-center text-muted-foreground">{viewerTexts.loading}</p>
            )}
            {state.status === 'error' && (
              <p className="py-8 text-center text-destructive" role="alert">
                {viewerTexts.error}
              </p>
            )}
            {state.status === 'loaded' && (
              <Suspense
                fallback={
                  <p className="py-8 text-center text-muted-foreground">{viewerTexts.loading}</p>
                }
              >
                <MarkdownDocument text={state.text} />
              </Suspense>
            )}
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
