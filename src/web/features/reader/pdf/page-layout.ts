/**
 * Where each page of a PDF sits in the reader's scrolling column, and which page the reader
 * is on. Pages are laid out from their sizes at scale 1 (the first page's size stands in for a
 * page not yet measured), so the column has its full height at once and only the pages near
 * the viewport are ever drawn.
 */

/** Space between pages and around the column, in CSS pixels. */
export const PAGE_GAP = 16;
export const MIN_SCALE = 0.25;
export const MAX_SCALE = 4;
const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];

export interface PageSize {
  width: number;
  height: number;
}

export interface PageLayout {
  /** Top of each page in the column, at the current scale. */
  tops: number[];
  heights: number[];
  widths: number[];
  total: number;
}

export function layoutPages(sizes: readonly PageSize[], scale: number): PageLayout {
  const tops: number[] = [];
  const heights: number[] = [];
  const widths: number[] = [];
  let y = PAGE_GAP;
  for (const size of sizes) {
    tops.push(y);
    const height = Math.round(size.height * scale);
    heights.push(height);
    widths.push(Math.round(size.width * scale));
    y += height + PAGE_GAP;
  }
  return { tops, heights, widths, total: y };
}

/** The 1-based page under the line a third of the way down the viewport. */
export function pageAt(layout: PageLayout, scrollTop: number, viewportHeight: number): number {
  const line = scrollTop + viewportHeight / 3;
  let low = 0;
  let high = layout.tops.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (layout.tops[mid]! <= line) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** The 1-based pages that overlap the viewport widened by `margin` pixels above and below. */
export function pagesNear(
  layout: PageLayout,
  scrollTop: number,
  viewportHeight: number,
  margin: number,
): number[] {
  const from = scrollTop - margin;
  const to = scrollTop + viewportHeight + margin;
  const pages: number[] = [];
  for (let i = 0; i < layout.tops.length; i += 1) {
    const top = layout.tops[i]!;
    if (top > to) break;
    if (top + layout.heights[i]! >= from) pages.push(i + 1);
  }
  return pages;
}

export function clampScale(scale: number): number {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.round(scale * 1000) / 1000));
}

export function zoomIn(scale: number): number {
  return clampScale(ZOOM_STEPS.find((step) => step > scale + 0.001) ?? MAX_SCALE);
}

export function zoomOut(scale: number): number {
  return clampScale([...ZOOM_STEPS].reverse().find((step) => step < scale - 0.001) ?? MIN_SCALE);
}

/** The scale at which the widest page fills the column's width. */
export function fitWidthScale(sizes: readonly PageSize[], columnWidth: number): number {
  const widest = Math.max(1, ...sizes.map((size) => size.width));
  return clampScale((columnWidth - 2 * PAGE_GAP) / widest);
}

/** A page number typed by the reader: a whole number within the document, else null. */
export function parsePageNumber(text: string, pageCount: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= pageCount ? page : null;
}
