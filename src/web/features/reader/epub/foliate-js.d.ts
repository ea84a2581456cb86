// foliate-js ships plain ES modules without types (decision 0165). These are the parts of its
// API the ePub reader uses, as its README and source (1.0.1) define them.
declare module 'foliate-js/epub.js' {
  export interface FoliateLoader {
    loadText(name: string): string | null | Promise<string | null>;
    loadBlob(name: string, type?: string): Blob | null | Promise<Blob | null>;
    getSize(name: string): number;
  }
  export interface FoliateTocItem {
    label: string;
    href: string;
    subitems?: FoliateTocItem[] | null;
  }
  export interface FoliateSection {
    id: string;
    linear?: string;
    cfi: string;
  }
  export class EPUB {
    constructor(loader: FoliateLoader);
    init(): Promise<EPUB>;
    sections: FoliateSection[];
    toc?: FoliateTocItem[];
    dir?: string;
    metadata?: { title?: string | Record<string, string>; language?: string };
    rendition?: { layout?: string };
    /** Fires `data` with `{ data, type, name }` as each resource becomes a blob: URL. */
    transformTarget: EventTarget;
    resolveHref(href: string): { index: number } | null;
    destroy(): void;
  }
}

declare module 'foliate-js/view.js' {
  import type { EPUB, FoliateTocItem } from 'foliate-js/epub.js';

  export interface FoliateRelocate {
    cfi: string;
    fraction: number;
    section?: { current: number; total: number };
    tocItem?: { label?: string; href?: string; id?: number } | null;
  }
  export interface FoliateExcerpt {
    pre: string;
    match: string;
    post: string;
  }
  export type FoliateSearchResult =
    | 'done'
    | { progress: number }
    | { label: string; subitems: { cfi: string; excerpt: FoliateExcerpt }[] };
  export interface FoliateRenderer extends HTMLElement {
    setStyles(css: string | [string, string]): void;
    next(): Promise<void>;
    prev(): Promise<void>;
    nextSection(): Promise<void>;
    prevSection(): Promise<void>;
    focusView(): void;
  }
  export class View extends HTMLElement {
    book: EPUB & { toc?: FoliateTocItem[] };
    renderer: FoliateRenderer;
    lastLocation: FoliateRelocate | null;
    open(book: EPUB): Promise<void>;
    init(options: { lastLocation?: string | null; showTextStart?: boolean }): Promise<void>;
    goTo(target: string | number): Promise<unknown>;
    prev(): Promise<void>;
    next(): Promise<void>;
    goLeft(): Promise<void>;
    goRight(): Promise<void>;
    search(options: {
      query: string;
      matchCase?: boolean;
      matchDiacritics?: boolean;
      matchWholeWords?: boolean;
    }): AsyncGenerator<FoliateSearchResult>;
    clearSearch(): void;
    close(): void;
    /** The CFI of a range in the section at `index` (0-based spine position). */
    getCFI(index: number, range: Range): string;
    /**
     * Draws an annotation whose `value` is a CFI in its section, if that section is loaded: the
     * view answers with `draw-annotation` ({@link FoliateDrawAnnotation}). Loading a section
     * fires `create-overlay` with its index, when its annotations should be added again.
     */
    addAnnotation(annotation: { value: string }): Promise<{ index: number; label: string } | void>;
    deleteAnnotation(annotation: { value: string }): Promise<unknown>;
  }
  export interface FoliateDrawAnnotation {
    draw: (
      func: (rects: DOMRect[], options?: { color?: string }) => SVGElement,
      options?: { color?: string },
    ) => void;
    annotation: { value: string };
  }
}

declare module 'foliate-js/overlayer.js' {
  export class Overlayer {
    /** A translucent box over each line of the range, filled with `color`. */
    static highlight(rects: DOMRect[], options?: { color?: string; padding?: number }): SVGElement;
  }
}
