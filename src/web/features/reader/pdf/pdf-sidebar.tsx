/**
 * The reader's side panel: the file's outline where it has one, else page thumbnails (drawn
 * only while they scroll into view), and the learner's highlights with the way to a note or a
 * flashcard made from each.
 */
import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { placeOf, type Highlight } from '../api/highlights';
import { HighlightList } from '../highlight-ui';

export interface OutlineItem {
  title: string;
  /** 1-based page, or null when the entry points nowhere in this file. */
  page: number | null;
  items: OutlineItem[];
}

type RawOutline = Awaited<ReturnType<PDFDocumentProxy['getOutline']>>;

/** The file's outline with each entry's page resolved; empty when the file has none. */
export async function loadOutline(doc: PDFDocumentProxy): Promise<OutlineItem[]> {
  const raw = await doc.getOutline();
  if (!raw || raw.length === 0) return [];
  const resolve = async (items: RawOutline): Promise<OutlineItem[]> =>
    Promise.all(
      items.map(async (item) => {
        let page: number | null = null;
        try {
          const dest =
            typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
          const ref = dest?.[0];
          if (typeof ref === 'number') page = ref + 1;
          else if (ref && typeof ref === 'object') page = (await doc.getPageIndex(ref)) + 1;
        } catch {
          page = null;
        }
        return { title: item.title, page, items: await resolve(item.items ?? []) };
      }),
    );
  return resolve(raw);
}

export function PdfSidebar({
  doc,
  outline,
  page,
  pageCount,
  drawThumbnails,
  highlights,
  onGoTo,
  onDelete,
}: {
  doc: PDFDocumentProxy;
  outline: OutlineItem[];
  page: number;
  pageCount: number;
  /** False until the reader's first page is drawn, so thumbnails never delay it. */
  drawThumbnails: boolean;
  highlights: Highlight[];
  onGoTo: (page: number) => void;
  onDelete: (highlight: Highlight) => void;
}) {
  return (
    <Tabs defaultValue="contents" className="flex h-full min-h-0 flex-col gap-0">
      <TabsList className="m-2 shrink-0">
        <TabsTrigger value="contents">{outline.length > 0 ? 'Outline' : 'Pages'}</TabsTrigger>
        <TabsTrigger value="highlights">Highlights ({highlights.length})</TabsTrigger>
      </TabsList>
      <TabsContent value="contents" className="min-h-0 flex-1 overflow-y-auto px-2 pb-4">
        {outline.length > 0 ? (
          <nav aria-label="Outline">
            <OutlineList items={outline} onGoTo={onGoTo} current={page} />
          </nav>
        ) : (
          <Thumbnails
            doc={doc}
            pageCount={pageCount}
            current={page}
            draw={drawThumbnails}
            onGoTo={onGoTo}
          />
        )}
      </TabsContent>
      <TabsContent value="highlights" className="min-h-0 flex-1 overflow-y-auto px-2 pb-4">
        <HighlightList
          highlights={highlights.filter((highlight) => highlight.locator.kind === 'pdf')}
          placeOf={(highlight) => placeOf(highlight.locator)}
          emptyText="No highlights yet. Select text on a page to highlight it."
          onGoTo={(highlight) =>
            onGoTo(highlight.locator.kind === 'pdf' ? highlight.locator.page : 1)
          }
          onDelete={onDelete}
        />
      </TabsContent>
    </Tabs>
  );
}

function OutlineList({
  items,
  onGoTo,
  current,
}: {
  items: OutlineItem[];
  onGoTo: (page: number) => void;
  current: number;
}) {
  return (
    <ul className="grid gap-0.5 text-sm">
      {items.map((item, index) => (
        <li key={`${item.title}-${index}`}>
          {item.page ? (
            <button
              type="button"
              onClick={() => onGoTo(item.page!)}
              aria-current={item.page === current ? 'location' : undefined}
              className="w-full rounded-sm px-2 py-1 text-left hover:bg-accent aria-[current=location]:font-semibold"
            >
              {item.title}
              <span className="text-muted-foreground"> · {item.page}</span>
            </button>
          ) : (
            <span className="block px-2 py-1 text-muted-foreground">{item.title}</span>
          )}
          {item.items.length > 0 && (
            <div className="pl-3">
              <OutlineList items={item.items} onGoTo={onGoTo} current={current} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

const THUMB_WIDTH = 112;

function Thumbnails({
  doc,
  pageCount,
  current,
  draw,
  onGoTo,
}: {
  doc: PDFDocumentProxy;
  pageCount: number;
  current: number;
  draw: boolean;
  onGoTo: (page: number) => void;
}) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.querySelector(`[data-thumb="${current}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  return (
    <nav aria-label="Pages">
      <ol ref={list} className="grid justify-center gap-3">
        {Array.from({ length: pageCount }, (_, i) => (
          <li key={i + 1}>
            <Thumbnail
              doc={doc}
              number={i + 1}
              current={current === i + 1}
              draw={draw}
              onGoTo={onGoTo}
            />
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Thumbnail({
  doc,
  number,
  current,
  draw,
  onGoTo,
}: {
  doc: PDFDocumentProxy;
  number: number;
  current: boolean;
  draw: boolean;
  onGoTo: (page: number) => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [visible, setVisible] = useState(false);
  const [height, setHeight] = useState(Math.round(THUMB_WIDTH * 1.3));

  useEffect(() => {
    const element = button.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => setVisible(entries.some((entry) => entry.isIntersecting)),
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!visible || !draw) return;
    let cancelled = false;
    let task: ReturnType<Awaited<ReturnType<PDFDocumentProxy['getPage']>>['render']> | null = null;
    void (async () => {
      const page = await doc.getPage(number);
      if (cancelled) return;
      const base = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: THUMB_WIDTH / base.width });
      setHeight(Math.round(viewport.height));
      const surface = canvas.current!;
      const ratio = window.devicePixelRatio || 1;
      surface.width = Math.floor(viewport.width * ratio);
      surface.height = Math.floor(viewport.height * ratio);
      task = page.render({
        canvas: surface,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      await task.promise;
    })().catch(() => {
      // A thumbnail that cannot be drawn stays a numbered blank; the page itself says why.
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, number, visible, draw]);

  return (
    <button
      ref={button}
      type="button"
      data-thumb={number}
      onClick={() => onGoTo(number)}
      aria-current={current ? 'page' : undefined}
      className="grid justify-items-center gap-1 rounded-md p-1 text-xs hover:bg-accent aria-[current=page]:bg-accent aria-[current=page]:font-semibold"
    >
      <canvas
        ref={canvas}
        aria-hidden="true"
        className="bg-white shadow-sm ring-1 ring-black/10"
        style={{ width: THUMB_WIDTH, height }}
      />
      <span>Page {number}</span>
    </button>
  );
}
