/**
 * One page of the PDF reader, drawn only while it is near the viewport: the canvas, pdf.js's
 * text layer over it (selectable, searchable, read by screen readers), and boxes painted
 * under the text for the learner's highlights and for find hits.
 */
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { TextLayer, type PDFDocumentProxy, type RenderTask } from 'pdfjs-dist';
import type { HighlightColour } from '../api/highlights';
import type { PageSize } from './page-layout';
import { boxesOf, rangeAt, type Box } from './text-offsets';

/** The most canvas pixels one page may take (memory on phones); above it, less sharpness. */
const MAX_CANVAS_PIXELS = 8_000_000;

export interface Mark {
  key: string;
  start: number;
  end: number;
  kind: 'highlight' | 'hit' | 'current-hit';
  colour?: HighlightColour;
}

const markClass: Record<string, string> = {
  yellow: 'bg-yellow-300/60',
  green: 'bg-green-300/60',
  blue: 'bg-sky-300/60',
  pink: 'bg-pink-300/60',
  hit: 'bg-orange-300/60',
  'current-hit': 'bg-orange-500/60 outline-2 outline-orange-700',
};

export function PdfPage({
  doc,
  number,
  pageCount,
  scale,
  top,
  left,
  width,
  height,
  marks,
  scrollToMark,
  onMeasured,
  onSettled,
}: {
  doc: PDFDocumentProxy;
  number: number;
  pageCount: number;
  scale: number;
  top: number;
  left: number;
  width: number;
  height: number;
  marks: Mark[];
  /** Bring this mark into view once its boxes are known (a find hit stepped to). */
  scrollToMark: string | null;
  onMeasured: (page: number, size: PageSize) => void;
  /** The canvas is drawn (or could not be): the reader's other drawing may start. */
  onSettled?: () => void;
}) {
  const frame = useRef<HTMLElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  // Keyed by what was drawn, so a new scale shows nothing stale without resetting state.
  const drawKey = `${number}@${scale}`;
  const [drawnFor, setDrawnFor] = useState<string | null>(null);
  const [textFor, setTextFor] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null);
  const textReady = textFor === drawKey;
  const failed = failure?.key === drawKey ? failure.message : null;
  const [boxes, setBoxes] = useState<{ mark: Mark; boxes: Box[] }[]>([]);
  const measured = useRef(onMeasured);
  const settled = useRef(onSettled);
  useEffect(() => {
    measured.current = onMeasured;
    settled.current = onSettled;
  });

  useEffect(() => {
    let cancelled = false;
    let task: RenderTask | null = null;
    let text: TextLayer | null = null;
    void (async () => {
      const page = await doc.getPage(number);
      if (cancelled) return;
      const base = page.getViewport({ scale: 1 });
      measured.current(number, { width: base.width, height: base.height });
      const viewport = page.getViewport({ scale });
      const surface = canvas.current!;
      const ratio = Math.min(
        window.devicePixelRatio || 1,
        Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
      );
      surface.width = Math.floor(viewport.width * ratio);
      surface.height = Math.floor(viewport.height * ratio);
      task = page.render({
        canvas: surface,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      await task.promise;
      if (cancelled) return;
      setDrawnFor(`${number}@${scale}`);
      settled.current?.();
      const container = layer.current!;
      container.replaceChildren();
      text = new TextLayer({ textContentSource: page.streamTextContent(), container, viewport });
      await text.render();
      if (!cancelled) setTextFor(`${number}@${scale}`);
    })().catch((error: unknown) => {
      if (cancelled || (error instanceof Error && error.name === 'RenderingCancelledException'))
        return;
      settled.current?.();
      setFailure({
        key: `${number}@${scale}`,
        message: error instanceof Error ? error.message : String(error),
      });
    });
    return () => {
      cancelled = true;
      task?.cancel();
      text?.cancel();
    };
  }, [doc, number, scale]);

  useLayoutEffect(() => {
    const container = layer.current;
    const page = frame.current;
    if (!textReady || !container || !page) {
      setBoxes([]);
      return;
    }
    setBoxes(
      marks.flatMap((mark) => {
        const range = rangeAt(container, mark.start, mark.end);
        return range ? [{ mark, boxes: boxesOf(range, page) }] : [];
      }),
    );
  }, [textReady, marks]);

  useEffect(() => {
    if (!scrollToMark) return;
    const target = frame.current?.querySelector(`[data-mark="${CSS.escape(scrollToMark)}"]`);
    target?.scrollIntoView({ block: 'center', inline: 'nearest' });
  }, [boxes, scrollToMark]);

  return (
    <section
      ref={frame}
      aria-label={`Page ${number} of ${pageCount}`}
      data-page-number={number}
      // Set once the canvas is painted: the bench's "first page shown" and tests wait for it.
      data-drawn={drawnFor === drawKey ? '' : undefined}
      className="absolute bg-white shadow-md ring-1 ring-black/10"
      style={
        {
          top,
          left,
          width,
          height,
          '--total-scale-factor': scale,
          '--scale-round-x': '1px',
          '--scale-round-y': '1px',
        } as CSSProperties
      }
    >
      <canvas ref={canvas} aria-hidden="true" className="absolute inset-0 size-full" />
      <div aria-hidden="true" className="pointer-events-none absolute inset-0 z-[1]">
        {boxes.flatMap(({ mark, boxes: list }) =>
          list.map((box, i) => (
            <div
              key={`${mark.key}-${i}`}
              data-mark={i === 0 ? mark.key : undefined}
              className={`absolute rounded-[2px] mix-blend-multiply ${markClass[mark.kind === 'highlight' ? (mark.colour ?? 'yellow') : mark.kind]}`}
              style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
            />
          )),
        )}
      </div>
      <div ref={layer} className="textLayer" data-text-layer="" data-page={number} />
      {failed && (
        <p
          role="alert"
          className="absolute inset-x-4 top-4 z-[3] rounded-md bg-white p-3 text-sm text-destructive ring-1 ring-destructive"
        >
          Page {number} could not be drawn: {failed}
        </p>
      )}
    </section>
  );
}
