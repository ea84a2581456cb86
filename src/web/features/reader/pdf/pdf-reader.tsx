/**
 * The PDF reader (issue 12, decision 0163) on pdf.js: a scrolling column of pages in which only
 * the pages near the viewport are drawn, so a 300-page file opens as fast as a short one; page
 * navigation by buttons, a page number field and keys (←/→, Page Up/Down, Home/End), zoom and
 * fit to width, find in document with every hit marked, the outline or page thumbnails, and
 * highlights made from a selection on the text layer. The page the learner is on is saved
 * through the reading session and opened again on any device.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import {
  ChevronLeft,
  ChevronRight,
  ChevronDown,
  ChevronUp,
  MoveHorizontal,
  PanelLeft,
  Search,
  X,
  ZoomIn,
  ZoomOut,
} from 'lucide-react';
import { toast } from 'sonner';
import { LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { HighlightBar } from '../highlight-ui';
import { useHighlighting } from '../use-highlighting';
import type { ViewerProps } from '../viewer-props';
import {
  fitWidthScale,
  layoutPages,
  pageAt,
  PAGE_GAP,
  pagesNear,
  parsePageNumber,
  zoomIn,
  zoomOut,
  type PageSize,
} from './page-layout';
import { openPdf, pdfErrorMessage, type PDFDocumentProxy } from './pdf-document';
import { PdfPage, type Mark } from './pdf-page';
import { loadOutline, PdfSidebar, type OutlineItem } from './pdf-sidebar';
import { findInPages, firstHitFrom, type TextHit } from './text-search';
import { textOffset } from './text-offsets';
import './pdf-reader.css';

/** Fit to width never enlarges a page past this (a very wide screen). */
const FIT_MAX_SCALE = 2;

interface PendingSelection {
  page: number;
  start: number;
  end: number;
  text: string;
}

export function PdfReader({ lesson, fileUrl, requested, session }: ViewerProps) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const opening = openPdf(fileUrl);
    let loaded: PDFDocumentProxy | null = null;
    opening.promise.then(
      (value) => {
        loaded = value;
        setDoc(value);
      },
      (reason: unknown) => setError(pdfErrorMessage(reason)),
    );
    return () => {
      opening.cancel();
      void loaded?.destroy();
    };
  }, [fileUrl]);

  if (error) {
    return (
      <div className="p-4 sm:p-6">
        <Notice tone="error">
          <span role="alert">{error}</span>
        </Notice>
      </div>
    );
  }
  if (!doc) {
    return (
      <div className="p-4">
        <LoadingBlock label="Opening the PDF…" />
      </div>
    );
  }
  const saved = typeof lesson.position?.page === 'number' ? lesson.position.page : null;
  const asked = parsePageNumber(requested.get('page') ?? '', doc.numPages);
  return (
    <DocumentView
      doc={doc}
      lesson={lesson}
      startPage={asked ?? (saved && saved <= doc.numPages ? saved : 1)}
      session={session}
    />
  );
}

function DocumentView({
  doc,
  lesson,
  startPage,
  session,
}: {
  doc: PDFDocumentProxy;
  lesson: ViewerProps['lesson'];
  startPage: number;
  session: ViewerProps['session'];
}) {
  const pageCount = doc.numPages;
  const scroller = useRef<HTMLDivElement>(null);
  const findField = useRef<HTMLInputElement>(null);
  const [columnWidth, setColumnWidth] = useState(0);
  const [sizes, setSizes] = useState<PageSize[] | null>(null);
  const [scale, setScale] = useState(1);
  const [fit, setFit] = useState(true);
  const [page, setPage] = useState(startPage);
  const [near, setNear] = useState<number[]>([]);
  /** What the learner is typing in the page field; null shows the current page. */
  const [pageDraft, setPageDraft] = useState<string | null>(null);
  const [sidebarOpen, setSidebarOpen] = useState(
    () => window.matchMedia('(min-width: 1024px)').matches,
  );
  const [outline, setOutline] = useState<OutlineItem[]>([]);
  const [findOpen, setFindOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<{ query: string; hits: TextHit[] } | null>(null);
  const [searching, setSearching] = useState(false);
  const [hitIndex, setHitIndex] = useState(-1);
  const [selection, setSelection] = useState<PendingSelection | null>(null);
  const [selectionNote, setSelectionNote] = useState<string | null>(null);
  const highlighting = useHighlighting(lesson);
  /** Where to scroll once the layout is ready: a page and how far down it. */
  const anchor = useRef<{ page: number; fraction: number } | null>({
    page: startPage,
    fraction: 0,
  });
  const texts = useRef<Promise<string[]> | null>(null);
  /**
   * Thumbnails wait for the first page drawn: they need the same worker and main thread, and
   * drawing six of them first made the page the learner opened later (decision 0185).
   */
  const [pageShown, setPageShown] = useState(false);
  const onPageSettled = useCallback(() => setPageShown(true), []);

  // Every page is laid out with the first page's size until it is drawn and measured.
  useEffect(() => {
    let cancelled = false;
    void doc.getPage(1).then((first) => {
      if (cancelled) return;
      const { width, height } = first.getViewport({ scale: 1 });
      setSizes(Array.from({ length: pageCount }, () => ({ width, height })));
    });
    void loadOutline(doc)
      .then((items) => !cancelled && setOutline(items))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [doc, pageCount]);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setColumnWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [sizes]);

  const fitScale = sizes && columnWidth > 0 ? fitWidthScale(sizes, columnWidth) : null;
  const shownScale = fit && fitScale ? Math.min(FIT_MAX_SCALE, fitScale) : scale;
  const layout = useMemo(
    () => (sizes ? layoutPages(sizes, shownScale) : null),
    [sizes, shownScale],
  );

  const follow = useCallback(() => {
    const element = scroller.current;
    if (!element || !layout) return;
    const current = pageAt(layout, element.scrollTop, element.clientHeight);
    setPage(current);
    const next = pagesNear(layout, element.scrollTop, element.clientHeight, element.clientHeight);
    setNear((previous) => (previous.join() === next.join() ? previous : next));
  }, [layout]);

  // A zoom, a resize or a jump keeps the anchored page where the reader expects it.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || !layout || columnWidth === 0) return;
    const target = anchor.current;
    if (target) {
      const index = Math.min(pageCount, Math.max(1, target.page)) - 1;
      element.scrollTop =
        layout.tops[index]! - PAGE_GAP / 2 + target.fraction * layout.heights[index]!;
      anchor.current = null;
    }
    follow();
  }, [layout, columnWidth, follow, pageCount]);

  const { savePosition } = session;
  useEffect(() => {
    if (layout) savePosition({ page });
  }, [page, layout, savePosition]);

  const keepAnchor = useCallback(() => {
    const element = scroller.current;
    if (!element || !layout) return;
    const current = pageAt(layout, element.scrollTop, element.clientHeight);
    const top = layout.tops[current - 1]!;
    const height = layout.heights[current - 1]!;
    anchor.current = {
      page: current,
      fraction: Math.min(1, Math.max(0, (element.scrollTop + PAGE_GAP / 2 - top) / height)),
    };
  }, [layout]);

  const goTo = useCallback(
    (target: number) => {
      const clamped = Math.min(pageCount, Math.max(1, target));
      anchor.current = { page: clamped, fraction: 0 };
      const element = scroller.current;
      if (element && layout) {
        element.scrollTop = layout.tops[clamped - 1]! - PAGE_GAP / 2;
        anchor.current = null;
        follow();
      }
    },
    [pageCount, layout, follow],
  );

  const changeZoom = (next: number) => {
    keepAnchor();
    setFit(false);
    setScale(next);
  };
  const fitToWidth = () => {
    keepAnchor();
    setFit(true);
  };

  const measured = useCallback((number: number, size: PageSize) => {
    setSizes((previous) => {
      if (!previous) return previous;
      const known = previous[number - 1];
      if (known && known.width === size.width && known.height === size.height) return previous;
      const next = previous.slice();
      next[number - 1] = size;
      return next;
    });
  }, []);

  // ← → Page Up/Down Home End move by page; Ctrl/⌘+F opens find (the browser's own find cannot
  // see pages that are not drawn).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        setFindOpen(true);
        requestAnimationFrame(() => findField.current?.select());
        return;
      }
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="tablist"]'))
        return;
      const moves: Record<string, number> = {
        ArrowLeft: page - 1,
        ArrowRight: page + 1,
        PageUp: page - 1,
        PageDown: page + 1,
        Home: 1,
        End: pageCount,
      };
      const destination = moves[event.key];
      if (destination === undefined) return;
      event.preventDefault();
      goTo(destination);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [page, pageCount, goTo]);

  // A selection inside one page's text layer can become a highlight.
  useEffect(() => {
    let timer: number | undefined;
    const read = () => {
      const chosen = document.getSelection();
      if (!chosen || chosen.isCollapsed || chosen.rangeCount === 0) return;
      const layerOf = (node: Node | null) =>
        (node instanceof Element ? node : node?.parentElement)?.closest<HTMLElement>(
          '[data-text-layer]',
        ) ?? null;
      const range = chosen.getRangeAt(0);
      const from = layerOf(range.startContainer);
      const to = layerOf(range.endContainer);
      if (!from && !to) return;
      if (!from || from !== to) {
        setSelection(null);
        setSelectionNote('Select text on one page at a time to highlight it.');
        return;
      }
      const start = textOffset(from, range.startContainer, range.startOffset);
      const end = textOffset(from, range.endContainer, range.endOffset);
      const text = range.toString().trim();
      if (end <= start || !text) return;
      setSelectionNote(null);
      setSelection({ page: Number(from.dataset.page), start, end, text: text.slice(0, 5000) });
    };
    const onChange = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(read, 150);
    };
    document.addEventListener('selectionchange', onChange);
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('selectionchange', onChange);
    };
  }, []);

  const pageTexts = useCallback(() => {
    texts.current ??= Promise.all(
      Array.from({ length: pageCount }, (_, i) =>
        doc
          .getPage(i + 1)
          .then((p) => p.getTextContent())
          .then((content) => content.items.map((item) => ('str' in item ? item.str : '')).join('')),
      ),
    );
    return texts.current;
  }, [doc, pageCount]);

  const showHit = (hits: TextHit[], index: number) => {
    setHitIndex(index);
    const hit = hits[index];
    if (hit && hit.page !== page) goTo(hit.page);
  };

  const find = async (event: FormEvent) => {
    event.preventDefault();
    const phrase = query.trim();
    if (!phrase) return;
    if (search && search.query === phrase && search.hits.length > 0) {
      showHit(search.hits, (hitIndex + 1) % search.hits.length);
      return;
    }
    setSearching(true);
    try {
      const hits = findInPages(await pageTexts(), phrase);
      setSearch({ query: phrase, hits });
      showHit(hits, firstHitFrom(hits, page));
    } catch (reason) {
      toast.error(
        `Could not search the file: ${reason instanceof Error ? reason.message : reason}`,
      );
    } finally {
      setSearching(false);
    }
  };

  const step = (delta: number) => {
    if (!search || search.hits.length === 0) return;
    showHit(search.hits, (hitIndex + delta + search.hits.length) % search.hits.length);
  };

  const closeFind = () => {
    setFindOpen(false);
    setSearch(null);
    setHitIndex(-1);
  };

  const saveHighlight = () => {
    if (!selection) return;
    const { page: at, start, end, text } = selection;
    highlighting.save({ locator: { kind: 'pdf', page: at, start, end }, text }, () => {
      setSelection(null);
      document.getSelection()?.removeAllRanges();
    });
  };

  const currentHit = search && hitIndex >= 0 ? search.hits[hitIndex] : undefined;
  const marksByPage = useMemo(() => {
    const byPage = new Map<number, Mark[]>();
    const add = (pageNumber: number, mark: Mark) => {
      const list = byPage.get(pageNumber) ?? [];
      list.push(mark);
      byPage.set(pageNumber, list);
    };
    for (const highlight of highlighting.list) {
      if (highlight.locator.kind !== 'pdf') continue;
      add(highlight.locator.page, {
        key: `h-${highlight.id}`,
        start: highlight.locator.start,
        end: highlight.locator.end,
        kind: 'highlight',
        colour: highlight.colour,
      });
    }
    search?.hits.forEach((hit, index) => {
      add(hit.page, {
        key: `f-${index}`,
        start: hit.start,
        end: hit.end,
        kind: index === hitIndex ? 'current-hit' : 'hit',
      });
    });
    return byPage;
  }, [highlighting.list, search, hitIndex]);

  const innerWidth = layout
    ? Math.max(columnWidth, Math.max(...layout.widths) + 2 * PAGE_GAP)
    : columnWidth;
  const matchesText = searching
    ? 'Searching…'
    : search
      ? search.hits.length === 0
        ? `No matches for “${search.query}”`
        : `${hitIndex + 1} of ${search.hits.length} matches`
      : '';

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div
        role="group"
        aria-label="Reader controls"
        className="flex shrink-0 flex-wrap items-center gap-1 border-b bg-background px-2 py-1.5"
      >
        <Button
          size="icon"
          variant="ghost"
          aria-label={sidebarOpen ? 'Hide the side panel' : 'Show outline, pages and highlights'}
          aria-expanded={sidebarOpen}
          aria-controls="pdf-side-panel"
          onClick={() => setSidebarOpen((open) => !open)}
        >
          <PanelLeft aria-hidden="true" />
        </Button>
        <Button
          size="icon"
          variant="ghost"
          aria-label="Previous page"
          disabled={page <= 1}
          onClick={() => goTo(page - 1)}
        >
          <ChevronLeft aria-hidden="true" />
        </Button>
        <form
          className="flex items-center gap-1 text-sm"
          onSubmit={(event) => {
            event.preventDefault();
            const target = parsePageNumber(pageDraft ?? String(page), pageCount);
            setPageDraft(null);
            if (target === null) {
              toast.error(`Type a page number from 1 to ${pageCount}.`);
              return;
            }
            goTo(target);
          }}
        >
          <Input
            id="pdf-page-number"
            aria-label={`Page number, 1 to ${pageCount}`}
            inputMode="numeric"
            className="h-8 w-14 px-2 text-center"
            value={pageDraft ?? String(page)}
            onChange={(event) => setPageDraft(event.target.value)}
            onBlur={() => setPageDraft(null)}
          />
          <span className="whitespace-nowrap text-muted-foreground">of {pageCount}</span>
        </form>
        <Button
          size="icon"
          variant="ghost"
          aria-label="Next page"
          disabled={page >= pageCount}
          onClick={() => goTo(page + 1)}
        >
          <ChevronRight aria-hidden="true" />
        </Button>
        <span className="mx-1 h-6 w-px bg-border max-sm:hidden" aria-hidden="true" />
        <Button
          size="icon"
          variant="ghost"
          aria-label="Zoom out"
          onClick={() => changeZoom(zoomOut(shownScale))}
        >
          <ZoomOut aria-hidden="true" />
        </Button>
        <output
          aria-live="polite"
          aria-label="Zoom"
          className="w-12 text-center text-sm tabular-nums"
        >
          {Math.round(shownScale * 100)}%
        </output>
        <Button
          size="icon"
          variant="ghost"
          aria-label="Zoom in"
          onClick={() => changeZoom(zoomIn(shownScale))}
        >
          <ZoomIn aria-hidden="true" />
        </Button>
        <Button
          size="sm"
          variant={fit ? 'secondary' : 'ghost'}
          aria-pressed={fit}
          onClick={fitToWidth}
        >
          <MoveHorizontal aria-hidden="true" />
          <span className="max-sm:sr-only">Fit to width</span>
        </Button>
        <Button
          size="sm"
          variant={findOpen ? 'secondary' : 'ghost'}
          className="ml-auto"
          aria-expanded={findOpen}
          aria-controls="pdf-find"
          onClick={() => {
            if (findOpen) closeFind();
            else {
              setFindOpen(true);
              requestAnimationFrame(() => findField.current?.focus());
            }
          }}
        >
          <Search aria-hidden="true" />
          <span className="max-sm:sr-only">Find</span>
        </Button>
      </div>
      {findOpen && (
        <form
          id="pdf-find"
          role="search"
          aria-label="Find in the document"
          onSubmit={(event) => void find(event)}
          className="flex shrink-0 flex-wrap items-center gap-1 border-b bg-background px-2 py-1.5"
        >
          <Input
            ref={findField}
            type="search"
            aria-label="Find in the document"
            placeholder="Find in the document"
            className="h-8 w-48 flex-1 sm:max-w-xs"
            value={query}
            maxLength={200}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                closeFind();
              } else if (event.key === 'Enter' && event.shiftKey) {
                event.preventDefault();
                step(-1);
              }
            }}
          />
          <Button
            type="button"
            size="icon"
            variant="ghost"
            aria-label="Previous match"
            disabled={!search || search.hits.length === 0}
            onClick={() => step(-1)}
          >
            <ChevronUp aria-hidden="true" />
          </Button>
          <Button type="submit" size="icon" variant="ghost" aria-label="Next match">
            <ChevronDown aria-hidden="true" />
          </Button>
          <p aria-live="polite" className="min-w-24 text-sm text-muted-foreground">
            {matchesText}
          </p>
          <Button
            type="button"
            size="icon"
            variant="ghost"
            aria-label="Close find"
            onClick={closeFind}
          >
            <X aria-hidden="true" />
          </Button>
        </form>
      )}
      <div className="relative flex min-h-0 flex-1">
        {sidebarOpen && (
          <aside
            id="pdf-side-panel"
            aria-label="Outline, pages and highlights"
            className="absolute inset-y-0 left-0 z-10 flex w-64 flex-col border-r bg-background shadow-lg lg:static lg:shadow-none"
          >
            <PdfSidebar
              doc={doc}
              outline={outline}
              page={page}
              pageCount={pageCount}
              drawThumbnails={pageShown}
              highlights={highlighting.list}
              onGoTo={(target) => {
                goTo(target);
                if (!window.matchMedia('(min-width: 1024px)').matches) setSidebarOpen(false);
              }}
              onDelete={highlighting.discard}
            />
          </aside>
        )}
        <div className="flex min-w-0 flex-1 flex-col">
          <div
            ref={scroller}
            role="region"
            aria-label={`Pages of ${lesson.title}`}
            tabIndex={0}
            onScroll={follow}
            className="relative min-h-0 flex-1 overflow-auto bg-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
          >
            {layout && (
              <div className="relative" style={{ height: layout.total, width: innerWidth }}>
                {near.map((number) => (
                  <PdfPage
                    key={number}
                    doc={doc}
                    number={number}
                    pageCount={pageCount}
                    scale={shownScale}
                    top={layout.tops[number - 1]!}
                    left={Math.round((innerWidth - layout.widths[number - 1]!) / 2)}
                    width={layout.widths[number - 1]!}
                    height={layout.heights[number - 1]!}
                    marks={marksByPage.get(number) ?? noMarks}
                    scrollToMark={currentHit && currentHit.page === number ? `f-${hitIndex}` : null}
                    onMeasured={measured}
                    onSettled={onPageSettled}
                  />
                ))}
              </div>
            )}
          </div>
          {selection ? (
            <HighlightBar
              place={`Page ${selection.page}`}
              text={selection.text}
              draft={highlighting.draft}
              onDraftChange={highlighting.setDraft}
              saving={highlighting.saving}
              onSave={saveHighlight}
              onCancel={() => {
                setSelection(null);
                highlighting.clearNote();
              }}
            />
          ) : (
            selectionNote && (
              <p className="flex shrink-0 items-center justify-between gap-2 border-t bg-background p-3 text-sm">
                {selectionNote}
                <Button size="sm" variant="ghost" onClick={() => setSelectionNote(null)}>
                  Dismiss
                </Button>
              </p>
            )
          )}
        </div>
      </div>
    </div>
  );
}

const noMarks: Mark[] = [];
