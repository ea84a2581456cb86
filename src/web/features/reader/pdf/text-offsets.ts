/**
 * Character offsets in a page's text layer (the text as pdf.js lays it out, decision 0150):
 * from a selection to offsets for a highlight, and from offsets back to the boxes to paint a
 * highlight or a find hit over the page.
 */

/** The offset of a point (node, offset) within `root`'s text. */
export function textOffset(root: Node, node: Node, offset: number): number {
  const range = document.createRange();
  range.setStart(root, 0);
  range.setEnd(node, offset);
  return range.toString().length;
}

/** A range over `root`'s text from `start` to `end`, or null when the text is shorter. */
export function rangeAt(root: Node, start: number, end: number): Range | null {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let seen = 0;
  let started = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const length = node.textContent?.length ?? 0;
    if (!started && start < seen + length) {
      range.setStart(node, start - seen);
      started = true;
    }
    if (started && end <= seen + length) {
      range.setEnd(node, end - seen);
      return range;
    }
    seen += length;
  }
  return null;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The boxes a range covers, relative to `frame` (the page), merged per line. */
export function boxesOf(range: Range, frame: Element): Box[] {
  const origin = frame.getBoundingClientRect();
  const boxes: Box[] = [];
  for (const rect of Array.from(range.getClientRects())) {
    if (rect.width < 0.5 || rect.height < 0.5) continue;
    boxes.push({
      left: rect.left - origin.left,
      top: rect.top - origin.top,
      width: rect.width,
      height: rect.height,
    });
  }
  return boxes;
}
