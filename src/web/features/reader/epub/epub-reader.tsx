/**
 * The ePub reader (issue 12, decision 0165): a lesson's book rendered by foliate-js, one
 * chapter at a time as real text in an iframe, with the table of contents, page and chapter
 * turns, text size and theme, find in the whole book with each hit in its context, and the
 * keyboard, and highlights made from a selection in the book (drawn over the text, listed in
 * the highlights panel, each can become a note or a flashcard; decision 0167). It reports the
 * reading position as a CFI and the learner's activity to the reader shell's reading session,
 * which saves them (decision 0163). Loaded only with the reader's route, as its own chunk:
 * never in the app's first load.
 */
import 'foliate-js/view.js';
import { EPUB } from 'foliate-js/epub.js';
import type { FoliateTocItem } from 'foliate-js/epub.js';
import { Overlayer } from 'foliate-js/overlayer.js';
import type {
  FoliateDrawAnnotation,
  FoliateRelocate,
  FoliateSearchResult,
  View,
} from 'foliate-js/view.js';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent as ReactKeyboardEvent,
} from 'react';
import { ChevronLeft, ChevronRight, Highlighter, List, Search, X } from 'lucide-react';
import { LoadError, LoadingBlock } from '@/components/app-page';
import { SearchForm } from '@/components/search-form';
import { useAppSession } from '@/lib/app-session';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Notice } from '@/components/ui/notice';
import {
  Sheet,
  SheetContent,
  SheetDescription,
  SheetHeader,
  SheetTitle,
} from '@/components/ui/sheet';
import { placeOf, type Highlight, type HighlightColour } from '../api/highlights';
import { HighlightBar, HighlightList } from '../highlight-ui';
import { useHighlighting } from '../use-highlighting';
import type { ViewerProps } from '../viewer-props';
import { useChapterHref } from './api/get-chapter-href';
import { useEpubBook } from './api/get-epub-book';
import { archiveLoader, EpubOpenError, withChapterPolicy } from './epub-archive';
import {
  bookStyles,
  loadAppearance,
  readerThemes,
  saveAppearance,
  stepTextSize,
  textSizeSteps,
  type AppReadingPreferences,
  type ReaderAppearance,
  type ReaderTheme,
} from './reader-appearance';

/** Where the learner is, as the reading session saves it in `lesson_progress.position`. */
export interface EpubPosition {
  /** foliate's CFI of the first visible text, e.g. `epubcfi(/6/4!/4/2,/1:0,/1:12)`. */
  cfi: string;
  /** How far through the book, 0–1. */
  fraction: number;
}

interface BookViewProps {
  /** The lesson's title: names the book region for screen readers. */
  title: string;
  files: Map<string, Uint8Array>;
  /** The saved position's CFI, restored when the book opens. */
  initialCfi: string | null;
  /** A library hit's chapter (its path in the book): opens there instead. */
  startHref: string | null;
  onPositionChange: (position: EpubPosition) => void;
  /** The learner did something inside the book (its frame's events never reach the page). */
  onActivity: () => void;
  highlighting: ReturnType<typeof useHighlighting>;
}

/** A selection in the book that can become a highlight. */
interface BookSelection {
  cfi: string;
  /** The chapter's spine position, 1-based. */
  chapter: number;
  label: string;
  text: string;
  /** Clears the selection in the chapter's frame. */
  clear: () => void;
}

/**
 * The fill of each colour over the book's text (drawn at 30 % opacity by foliate's overlayer,
 * so text stays readable on every theme); the same hues as the swatches.
 */
const highlightFill: Record<HighlightColour, string> = {
  yellow: '#facc15',
  green: '#22c55e',
  blue: '#0ea5e9',
  pink: '#ec4899',
};

type EpubHighlight = Highlight & { locator: { kind: 'epub' } };

function isEpubHighlight(highlight: Highlight): highlight is EpubHighlight {
  return highlight.locator.kind === 'epub';
}

/** `?chapter=N` (a library hit's spine position, 1-based), or null. */
function requestedChapter(requested: URLSearchParams): number | null {
  const value = Number(requested.get('chapter'));
  return Number.isInteger(value) && value >= 1 && value <= 5000 ? value : null;
}

export function EpubReader({ lesson, fileUrl, requested, session }: ViewerProps) {
  const app = useAppSession();
  const filePath = lesson.filePath ?? '';
  const chapter = requestedChapter(requested);
  const book = useEpubBook(app.userId, filePath, fileUrl);
  const start = useChapterHref(app.userId, filePath, chapter);
  const savedCfi = typeof lesson.position?.cfi === 'string' ? lesson.position.cfi : null;
  const highlighting = useHighlighting(lesson);

  if (book.isPending || (chapter !== null && start.isPending)) {
    return (
      <div className="p-4">
        <LoadingBlock label="Opening the book…" />
      </div>
    );
  }
  if (book.isError) {
    return (
      <div className="p-4 sm:p-6">
        {book.error instanceof EpubOpenError ? (
          <Notice tone="error">{book.error.message}</Notice>
        ) : (
          <LoadError
            message={`Could not open the book: ${book.error.message}`}
            onRetry={() => void book.refetch()}
          />
        )}
      </div>
    );
  }
  return (
    <BookView
      title={lesson.title}
      files={book.data}
      initialCfi={savedCfi}
      startHref={start.data ?? null}
      onPositionChange={(position) => session.savePosition({ ...position })}
      onActivity={session.noteActivity}
      highlighting={highlighting}
    />
  );
}

interface TocEntry {
  label: string;
  href: string;
  depth: number;
}

function flattenToc(items: readonly FoliateTocItem[] | undefined, depth = 0): TocEntry[] {
  return (items ?? []).flatMap((item) => [
    { label: item.label.trim() || 'Untitled section', href: item.href, depth },
    ...flattenToc(item.subitems ?? undefined, depth + 1),
  ]);
}

interface FindHit {
  cfi: string;
  chapter: string;
  pre: string;
  match: string;
  post: string;
}

interface FindState {
  query: string;
  running: boolean;
  /** 0–1 of the book searched so far. */
  progress: number;
  hits: FindHit[];
  /** The hit last opened, an index into `hits`. */
  current: number | null;
}

/** More hits than anyone reads; the list stops there and says so. */
const MAX_HITS = 500;

const PAGE_KEYS: Record<string, 'left' | 'right' | 'prev' | 'next'> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  PageUp: 'prev',
  PageDown: 'next',
};

function motionAllowed(): boolean {
  return (
    !window.matchMedia('(prefers-reduced-motion: reduce)').matches &&
    document.documentElement.getAttribute('data-a11y-motion') !== 'reduce'
  );
}

function appReadingPreferences(): AppReadingPreferences {
  const html = document.documentElement;
  const spacing = html.getAttribute('data-a11y-spacing');
  return {
    dyslexicFont: html.getAttribute('data-a11y-font') === 'dyslexic',
    lineSpacing: spacing === 'relaxed' || spacing === 'loose' ? spacing : 'default',
  };
}

function BookView({
  title,
  files,
  initialCfi,
  startHref,
  onPositionChange,
  onActivity,
  highlighting,
}: BookViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<View | null>(null);
  const searchRef = useRef<AsyncGenerator<FoliateSearchResult> | null>(null);
  const callbacks = useRef({ onPositionChange, onActivity });
  const [opened, setOpened] = useState<'opening' | 'ready' | { error: string }>('opening');
  const [toc, setToc] = useState<TocEntry[]>([]);
  const [place, setPlace] = useState<{ label: string; href: string | null; fraction: number }>({
    label: '',
    href: null,
    fraction: 0,
  });
  const [appearance, setAppearance] = useState<ReaderAppearance>(() =>
    loadAppearance(window.localStorage),
  );
  const [contentsOpen, setContentsOpen] = useState(false);
  const [findOpen, setFindOpen] = useState(false);
  const [find, setFind] = useState<FindState | null>(null);
  const [highlightsOpen, setHighlightsOpen] = useState(false);
  const [selection, setSelection] = useState<BookSelection | null>(null);
  const highlights = highlighting.list.filter(isEpubHighlight);
  /** The highlights drawn in the view, by CFI: what `create-overlay` and `draw-annotation` read. */
  const drawn = useRef(new Map<string, EpubHighlight>());

  useEffect(() => {
    callbacks.current = { onPositionChange, onActivity };
  }, [onPositionChange, onActivity]);

  // The book is opened once per file; position and start are read when it opens.
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let closed = false;
    const view = document.createElement('foliate-view') as View;
    view.className = 'block size-full';
    let book: EPUB | null = null;

    const turn = (direction: 'left' | 'right' | 'prev' | 'next') => {
      callbacks.current.onActivity();
      if (direction === 'left') void view.goLeft();
      else if (direction === 'right') void view.goRight();
      else if (direction === 'prev') void view.prev();
      else void view.next();
    };
    const onBookKey = (event: KeyboardEvent) => {
      callbacks.current.onActivity();
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const direction = PAGE_KEYS[event.key];
      if (!direction) return;
      event.preventDefault();
      turn(direction);
    };
    const onBookActivity = () => callbacks.current.onActivity();

    // A selection made with the mouse, touch or the keyboard (caret browsing) in a chapter.
    const watchSelection = (doc: Document, index: number) => {
      let timer: number | undefined;
      const read = () => {
        const chosen = doc.getSelection();
        if (!chosen || chosen.isCollapsed || chosen.rangeCount === 0) return;
        const range = chosen.getRangeAt(0);
        const text = range.toString().replace(/\s+/g, ' ').trim();
        if (!text) return;
        let cfi: string;
        try {
          cfi = view.getCFI(index, range);
        } catch {
          return;
        }
        setSelection({
          cfi,
          chapter: index + 1,
          label: view.lastLocation?.tocItem?.label?.trim().slice(0, 200) ?? '',
          text: text.slice(0, 5000),
          clear: () => doc.getSelection()?.removeAllRanges(),
        });
      };
      doc.addEventListener('selectionchange', () => {
        window.clearTimeout(timer);
        timer = window.setTimeout(read, 150);
      });
    };
    const onCreateOverlay = (event: Event) => {
      const { index } = (event as CustomEvent<{ index: number }>).detail;
      for (const highlight of drawn.current.values()) {
        if (highlight.locator.chapter === index + 1) {
          void view.addAnnotation({ value: highlight.locator.cfi }).catch(() => undefined);
        }
      }
    };
    const onDrawAnnotation = (event: Event) => {
      const { draw, annotation } = (event as CustomEvent<FoliateDrawAnnotation>).detail;
      const highlight = drawn.current.get(annotation.value);
      if (highlight) draw(Overlayer.highlight, { color: highlightFill[highlight.colour] });
    };
    const onShowAnnotation = () => setHighlightsOpen(true);

    const onLoad = (event: Event) => {
      const { doc, index } = (event as CustomEvent<{ doc: Document; index: number }>).detail;
      watchSelection(doc, index);
      // The chapter's frame is named for screen readers by the chapter's own title.
      const chapter = doc.title.trim();
      doc.defaultView?.frameElement?.setAttribute(
        'title',
        chapter ? `${title}: ${chapter}` : `${title}: the book's text`,
      );
      doc.addEventListener('keydown', onBookKey);
      doc.addEventListener('pointerdown', onBookActivity, { passive: true });
      doc.addEventListener('wheel', onBookActivity, { passive: true });
    };
    const onRelocate = (event: Event) => {
      const detail = (event as CustomEvent<FoliateRelocate>).detail;
      const fraction = Number.isFinite(detail.fraction) ? detail.fraction : 0;
      setPlace({
        label: detail.tocItem?.label?.trim() ?? '',
        href: detail.tocItem?.href ?? null,
        fraction,
      });
      callbacks.current.onPositionChange({
        cfi: detail.cfi,
        fraction: Math.round(Math.min(1, Math.max(0, fraction)) * 1000) / 1000,
      });
    };

    (async () => {
      try {
        book = await new EPUB(archiveLoader(files)).init();
        if (closed) return;
        book.transformTarget.addEventListener('data', (event) => {
          const detail = (event as CustomEvent<{ data: unknown; type: string }>).detail;
          if (
            typeof detail.data === 'string' &&
            /^(application\/xhtml\+xml|text\/html|image\/svg\+xml)$/.test(detail.type)
          ) {
            detail.data = withChapterPolicy(detail.data, detail.type);
          }
        });
        if (book.sections.length === 0) throw new Error('it has no chapters');
        view.addEventListener('load', onLoad);
        view.addEventListener('relocate', onRelocate);
        view.addEventListener('create-overlay', onCreateOverlay);
        view.addEventListener('draw-annotation', onDrawAnnotation);
        view.addEventListener('show-annotation', onShowAnnotation);
        host.append(view);
        await view.open(book);
        if (closed) return;
        view.renderer.setAttribute('max-inline-size', '720px');
        view.renderer.setAttribute('gap', '6%');
        if (motionAllowed()) view.renderer.setAttribute('animated', '');
        view.renderer.setStyles(bookStyles(appearance, appReadingPreferences()));
        setToc(flattenToc(view.book.toc));
        if (startHref && view.book.resolveHref(startHref)) await view.goTo(startHref);
        else await view.init({ lastLocation: initialCfi ?? null });
        // A saved place this book no longer has (the file was replaced): its beginning.
        if (!view.lastLocation) await view.init({ lastLocation: null });
        if (closed) return;
        viewRef.current = view;
        setOpened('ready');
      } catch (error) {
        if (closed) return;
        setOpened({
          error: `This ePub is damaged and cannot be shown: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}.`,
        });
      }
    })();

    return () => {
      closed = true;
      viewRef.current = null;
      void searchRef.current?.return(undefined);
      view.removeEventListener('load', onLoad);
      view.removeEventListener('relocate', onRelocate);
      view.removeEventListener('create-overlay', onCreateOverlay);
      view.removeEventListener('draw-annotation', onDrawAnnotation);
      view.removeEventListener('show-annotation', onShowAnnotation);
      view.close();
      view.remove();
      book?.destroy();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- opened once per book; see above.
  }, [files]);

  useEffect(() => {
    saveAppearance(window.localStorage, appearance);
    viewRef.current?.renderer.setStyles(bookStyles(appearance, appReadingPreferences()));
  }, [appearance, opened]);

  const view = () => viewRef.current;
  const ready = opened === 'ready';

  // The saved highlights drawn over the book: new or recoloured ones added, deleted ones
  // removed (adding one again redraws it). Chapters loaded later draw theirs from `drawn`, in
  // `create-overlay`.
  const shown = useRef(new Map<string, HighlightColour>());
  const highlightKey = highlights.map((h) => `${h.id}:${h.colour}`).join();
  useEffect(() => {
    drawn.current = new Map(highlights.map((h) => [h.locator.cfi, h]));
    const v = viewRef.current;
    if (!v) return;
    for (const cfi of shown.current.keys()) {
      if (!drawn.current.has(cfi)) void v.deleteAnnotation({ value: cfi }).catch(() => undefined);
    }
    for (const [cfi, highlight] of drawn.current) {
      if (shown.current.get(cfi) !== highlight.colour) {
        void v.addAnnotation({ value: cfi }).catch(() => undefined);
      }
    }
    shown.current = new Map(highlights.map((h) => [h.locator.cfi, h.colour]));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by ids and colours.
  }, [highlightKey, ready]);

  function saveHighlight() {
    if (!selection) return;
    const { cfi, chapter, label, text, clear } = selection;
    highlighting.save(
      { locator: { kind: 'epub', cfi, chapter, ...(label ? { label } : {}) }, text },
      () => {
        clear();
        setSelection(null);
      },
    );
  }

  function openHighlight(highlight: Highlight) {
    if (highlight.locator.kind !== 'epub') return;
    callbacks.current.onActivity();
    setHighlightsOpen(false);
    void view()?.goTo(highlight.locator.cfi);
  }

  function go(direction: 'prev' | 'next') {
    callbacks.current.onActivity();
    void (direction === 'prev' ? view()?.prev() : view()?.next());
  }

  function onRegionKey(event: ReactKeyboardEvent<HTMLDivElement>) {
    if (event.target !== event.currentTarget) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const direction = PAGE_KEYS[event.key];
    if (!direction) return;
    event.preventDefault();
    callbacks.current.onActivity();
    const v = view();
    if (!v) return;
    if (direction === 'left') void v.goLeft();
    else if (direction === 'right') void v.goRight();
    else if (direction === 'prev') void v.prev();
    else void v.next();
  }

  function openHref(href: string) {
    callbacks.current.onActivity();
    setContentsOpen(false);
    void view()?.goTo(href);
  }

  async function runFind(query: string) {
    const v = view();
    if (!v) return;
    void searchRef.current?.return(undefined);
    const search = v.search({ query });
    searchRef.current = search;
    const hits: FindHit[] = [];
    setFind({ query, running: true, progress: 0, hits: [], current: null });
    try {
      for await (const result of search) {
        if (searchRef.current !== search) return;
        if (result === 'done') break;
        if ('progress' in result) {
          setFind((f) => f && { ...f, progress: result.progress });
        } else {
          for (const item of result.subitems) {
            hits.push({ cfi: item.cfi, chapter: result.label.trim(), ...item.excerpt });
          }
          setFind((f) => f && { ...f, hits: hits.slice(0, MAX_HITS) });
          if (hits.length >= MAX_HITS) break;
        }
      }
    } finally {
      if (searchRef.current === search) {
        setFind((f) => f && { ...f, running: false, progress: 1 });
      }
    }
  }

  function openHit(index: number) {
    const hit = find?.hits[index];
    if (!hit) return;
    callbacks.current.onActivity();
    setFind((f) => f && { ...f, current: index });
    setFindOpen(false);
    void view()?.goTo(hit.cfi);
  }

  function closeFind() {
    void searchRef.current?.return(undefined);
    searchRef.current = null;
    view()?.clearSearch();
    setFind(null);
  }

  const theme = readerThemes[appearance.theme];
  const percent = Math.round(place.fraction * 100);

  return (
    <div className="flex h-full min-h-0 flex-col gap-2 p-2 sm:p-3">
      <div
        role="toolbar"
        aria-label="Book controls"
        className="flex flex-wrap items-center gap-2 rounded-lg border bg-card p-2"
      >
        <Button
          variant="outline"
          size="sm"
          onClick={() => setContentsOpen(true)}
          disabled={!ready || toc.length === 0}
        >
          <List aria-hidden="true" />
          Contents
        </Button>
        <Button variant="outline" size="sm" onClick={() => go('prev')} disabled={!ready}>
          <ChevronLeft aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Previous page</span>
          <span className="sr-only"> (Left arrow)</span>
        </Button>
        <Button variant="outline" size="sm" onClick={() => go('next')} disabled={!ready}>
          <span className="sr-only sm:not-sr-only">Next page</span>
          <span className="sr-only"> (Right arrow)</span>
          <ChevronRight aria-hidden="true" />
        </Button>
        <Button variant="outline" size="sm" onClick={() => setFindOpen(true)} disabled={!ready}>
          <Search aria-hidden="true" />
          Find
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => setHighlightsOpen(true)}
          disabled={!ready}
        >
          <Highlighter aria-hidden="true" />
          Highlights ({highlights.length})
        </Button>
        <div className="flex items-center gap-1" role="group" aria-label="Text size">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setAppearance((a) => ({ ...a, textSize: stepTextSize(a.textSize, -1) }))}
            disabled={appearance.textSize === textSizeSteps[0]}
            aria-label="Smaller text"
          >
            A−
          </Button>
          <span className="min-w-12 text-center text-sm tabular-nums" aria-live="polite">
            <span className="sr-only">Text size </span>
            {appearance.textSize}%
          </span>
          <Button
            variant="outline"
            size="sm"
            onClick={() => setAppearance((a) => ({ ...a, textSize: stepTextSize(a.textSize, 1) }))}
            disabled={appearance.textSize === textSizeSteps[textSizeSteps.length - 1]}
            aria-label="Larger text"
          >
            A+
          </Button>
        </div>
        <ThemeSelect
          value={appearance.theme}
          onChange={(value) => setAppearance((a) => ({ ...a, theme: value }))}
        />
        <p className="ml-auto min-w-0 text-sm text-muted-foreground" aria-live="polite">
          {ready ? (
            <>
              {place.label && <span className="font-medium text-foreground">{place.label} · </span>}
              {percent}% read
            </>
          ) : (
            'Opening the book…'
          )}
        </p>
      </div>

      {find && find.current !== null && !findOpen && (
        <FindBar
          find={find}
          onStep={(delta) => {
            const total = find.hits.length;
            openHit(((find.current ?? 0) + delta + total) % total);
          }}
          onShowAll={() => setFindOpen(true)}
          onClose={closeFind}
        />
      )}

      {typeof opened === 'object' && <Notice tone="error">{opened.error}</Notice>}

      <div
        role="region"
        aria-label={`Book: ${title}`}
        tabIndex={0}
        onKeyDown={onRegionKey}
        className="relative min-h-64 flex-1 overflow-hidden rounded-lg border outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        style={{ background: theme.background, color: theme.text }}
        hidden={typeof opened === 'object'}
      >
        {!ready && (
          <div className="absolute inset-0 grid place-items-center p-4">
            <LoadingBlock label="Opening the book…" />
          </div>
        )}
        <div ref={hostRef} className="size-full" />
      </div>
      {selection && (
        <HighlightBar
          place={selection.label || `Chapter ${selection.chapter}`}
          text={selection.text}
          draft={highlighting.draft}
          onDraftChange={highlighting.setDraft}
          saving={highlighting.saving}
          onSave={saveHighlight}
          onCancel={() => {
            selection.clear();
            setSelection(null);
            highlighting.clearNote();
          }}
        />
      )}
      <p className="text-xs text-muted-foreground max-sm:sr-only">
        Turn pages with the arrow keys or Page Up and Page Down while the book has focus. Select
        text in the book to highlight it; the highlight controls follow the book.
      </p>

      <Sheet open={contentsOpen} onOpenChange={setContentsOpen}>
        <SheetContent side="left" className="overflow-y-auto">
          <SheetHeader>
            <SheetTitle>Contents</SheetTitle>
            <SheetDescription>Open a chapter of {title}.</SheetDescription>
          </SheetHeader>
          <nav aria-label="Table of contents" className="px-4 pb-4">
            <ol className="grid gap-1">
              {toc.map((entry, index) => (
                <li
                  key={`${entry.href}-${index}`}
                  style={{ paddingInlineStart: `${entry.depth}rem` }}
                >
                  <Button
                    variant="ghost"
                    className="h-auto w-full justify-start py-2 text-left whitespace-normal"
                    aria-current={entry.href === place.href ? 'location' : undefined}
                    onClick={() => openHref(entry.href)}
                  >
                    {entry.label}
                  </Button>
                </li>
              ))}
            </ol>
          </nav>
        </SheetContent>
      </Sheet>

      <Sheet open={highlightsOpen} onOpenChange={setHighlightsOpen}>
        <SheetContent side="right" className="overflow-y-auto">
          <SheetHeader>
            <SheetTitle>Highlights</SheetTitle>
            <SheetDescription>
              Your highlights in {title}: open one in the book, or make a note or a flashcard from
              it.
            </SheetDescription>
          </SheetHeader>
          <div className="px-4 pb-4">
            <HighlightList
              highlights={highlights}
              placeOf={(highlight) => placeOf(highlight.locator)}
              emptyText="No highlights yet. Select text in the book to highlight it."
              onGoTo={openHighlight}
              onDelete={highlighting.discard}
            />
          </div>
        </SheetContent>
      </Sheet>

      <Sheet open={findOpen} onOpenChange={setFindOpen}>
        <SheetContent side="right" className="overflow-y-auto">
          <SheetHeader>
            <SheetTitle>Find in the book</SheetTitle>
            <SheetDescription>
              Every place the words appear, with the text around them.
            </SheetDescription>
          </SheetHeader>
          <FindPanel find={find} onFind={(query) => void runFind(query)} onOpen={openHit} />
        </SheetContent>
      </Sheet>
    </div>
  );
}

function ThemeSelect({
  value,
  onChange,
}: {
  value: ReaderTheme;
  onChange: (value: ReaderTheme) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Label htmlFor={id}>Theme</Label>
      <NativeSelect
        id={id}
        className="w-auto"
        value={value}
        onChange={(event) => onChange(event.target.value as ReaderTheme)}
      >
        {(Object.keys(readerThemes) as ReaderTheme[]).map((key) => (
          <option key={key} value={key}>
            {readerThemes[key].label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

function FindPanel({
  find,
  onFind,
  onOpen,
}: {
  find: FindState | null;
  onFind: (query: string) => void;
  onOpen: (index: number) => void;
}) {
  const [draft, setDraft] = useState(find?.query ?? '');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const query = draft.trim();
    if (query.length < 2) {
      setError('Type at least two characters to find.');
      return;
    }
    if (query.length > 200) {
      setError('Find at most 200 characters.');
      return;
    }
    setError(null);
    onFind(query);
  }

  return (
    <div className="grid gap-3 px-4 pb-4">
      <SearchForm
        label="Words to find"
        value={draft}
        onValueChange={setDraft}
        onSubmit={submit}
        error={error}
        submitLabel="Find"
      />
      {find && (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {find.running
            ? `Searching… ${Math.round(find.progress * 100)}% of the book, ${find.hits.length} found so far`
            : find.hits.length === 0
              ? `“${find.query}” is not in this book.`
              : `${find.hits.length === MAX_HITS ? `The first ${MAX_HITS}` : find.hits.length} ${find.hits.length === 1 ? 'place' : 'places'} with “${find.query}”`}
        </p>
      )}
      {find && find.hits.length > 0 && (
        <ol className="grid gap-2" aria-label={`Places with “${find.query}”`}>
          {find.hits.map((hit, index) => (
            <li key={`${hit.cfi}-${index}`}>
              <button
                type="button"
                onClick={() => onOpen(index)}
                aria-current={find.current === index ? 'true' : undefined}
                className="grid w-full gap-1 rounded-md border p-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-[current=true]:border-primary"
              >
                {hit.chapter && (
                  <span className="text-xs font-medium text-muted-foreground">{hit.chapter}</span>
                )}
                <span>
                  {hit.pre}
                  <mark className="rounded-sm bg-yellow-200 px-0.5 text-black">{hit.match}</mark>
                  {hit.post}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function FindBar({
  find,
  onStep,
  onShowAll,
  onClose,
}: {
  find: FindState;
  onStep: (delta: 1 | -1) => void;
  onShowAll: () => void;
  onClose: () => void;
}) {
  return (
    <div
      role="group"
      aria-label="Find results"
      className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted p-2 text-sm"
    >
      <p className="mr-auto" aria-live="polite">
        Place {(find.current ?? 0) + 1} of {find.hits.length} with “{find.query}”
      </p>
      <Button variant="outline" size="sm" onClick={() => onStep(-1)}>
        <ChevronLeft aria-hidden="true" />
        Previous place
      </Button>
      <Button variant="outline" size="sm" onClick={() => onStep(1)}>
        Next place
        <ChevronRight aria-hidden="true" />
      </Button>
      <Button variant="outline" size="sm" onClick={onShowAll}>
        All places
      </Button>
      <Button variant="ghost" size="sm" onClick={onClose}>
        <X aria-hidden="true" />
        Close find
      </Button>
    </div>
  );
}
