/**
 * Documentation pages are data: a page is a list of sections, a section a list of blocks.
 * The doc page view renders them; content modules under ./docs hold only words and facts.
 *
 * Inline text in `text`, `items` and table cells supports **bold**, `code` and
 * [links](/path-or-https-url); nothing else is interpreted.
 */
export type IconName =
  | 'shield'
  | 'lock'
  | 'key'
  | 'server'
  | 'database'
  | 'cloud'
  | 'users'
  | 'user'
  | 'book'
  | 'chart'
  | 'file'
  | 'check'
  | 'alert'
  | 'graduation'
  | 'mail'
  | 'settings'
  | 'code'
  | 'search'
  | 'headphones';

export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[]; ordered?: boolean }
  | { type: 'table'; caption: string; columns: string[]; rows: string[][] }
  | { type: 'callout'; tone: 'info' | 'warning' | 'success'; title?: string; text: string }
  | { type: 'code'; code: string; language?: string; caption?: string }
  | { type: 'cards'; items: { title: string; text: string; icon?: IconName }[] }
  | { type: 'steps'; items: { title: string; text: string }[] }
  | { type: 'definitions'; items: { term: string; text: string }[] };

export interface DocSection {
  /** Anchor id, kebab-case, unique in the page. */
  id: string;
  heading: string;
  blocks: Block[];
}

export interface DocPage {
  /** Must equal the route's path in src/common/routes.ts. */
  path: string;
  /** The page's h1. */
  heading: string;
  /** One or two sentences under the heading. */
  lead: string;
  /** e.g. "Last updated October 3, 2025" or "Effective October 3, 2025". */
  meta?: string;
  badges?: string[];
  icon?: IconName;
  sections: DocSection[];
}
