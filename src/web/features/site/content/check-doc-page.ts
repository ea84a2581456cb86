/**
 * The content contract every documentation page keeps (see ./types.ts), as a list of problems
 * so a failing test names each one. Used by the tests of the doc content modules.
 */
import { isPublicApiPath } from '@common/public-api-paths';
import { findRoute, isKnownRoute } from '@common/routes';
import type { Block, DocPage } from './types';

const kebabCase = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const inlineLink = /\[([^\]]*)\]\(([^)\s]*)\)/g;
const emailAddress = /^[^@\s]+@[^@\s]+\.[a-z]+$/;

/** The inline-markup strings a block shows (code is shown verbatim, only its caption is parsed). */
export function blockTexts(block: Block): string[] {
  switch (block.type) {
    case 'paragraph':
      return [block.text];
    case 'list':
      return block.items;
    case 'table':
      return [block.caption, ...block.columns, ...block.rows.flat()];
    case 'callout':
      return block.title === undefined ? [block.text] : [block.title, block.text];
    case 'code':
      return block.caption === undefined ? [] : [block.caption];
    case 'cards':
    case 'steps':
      return block.items.flatMap((item) => [item.title, item.text]);
    case 'definitions':
      return block.items.flatMap((item) => [item.term, item.text]);
  }
}

/** Every string of the page that is rendered as inline markup. */
export function docPageTexts(page: DocPage): string[] {
  return [
    page.heading,
    page.lead,
    ...page.sections.flatMap((section) => [section.heading, ...section.blocks.flatMap(blockTexts)]),
  ];
}

/** The targets of every inline link on the page. */
export function docPageLinks(page: DocPage): string[] {
  return docPageTexts(page).flatMap((text) =>
    [...text.matchAll(inlineLink)].map((match) => match[2] ?? ''),
  );
}

function linkProblems(text: string): string[] {
  const problems: string[] = [];
  for (const [, label, target = ''] of text.matchAll(inlineLink)) {
    if (!label?.trim()) problems.push(`link to ${target} has no text`);
    if (target.startsWith('/')) {
      const path = target.split('#')[0] ?? target;
      if (!isKnownRoute(path) && !isPublicApiPath(path))
        problems.push(`unknown internal link ${target}`);
    } else if (target.startsWith('mailto:')) {
      if (!emailAddress.test(target.slice('mailto:'.length)))
        problems.push(`bad mail link ${target}`);
    } else if (!target.startsWith('https://')) {
      problems.push(`link ${target || '(empty)'} is not an internal path, https or mailto`);
    }
  }
  return problems;
}

/** Markup the renderer would show literally: empty strings, unpaired `code` or **bold**. */
function textProblems(text: string, where: string): string[] {
  const problems: string[] = [];
  if (text.trim() === '') problems.push(`empty text in ${where}`);
  if ((text.match(/`/g) ?? []).length % 2 !== 0) problems.push(`unbalanced code span: ${text}`);
  const withoutCode = text.replace(/`[^`]*`/g, '');
  if ((withoutCode.match(/\*\*/g) ?? []).length % 2 !== 0)
    problems.push(`unbalanced bold: ${text}`);
  return [...problems, ...linkProblems(text)];
}

function blockProblems(block: Block): string[] {
  const problems: string[] = [];
  if (block.type === 'code' && block.code.trim() === '') problems.push('empty code block');
  if ('items' in block && block.items.length === 0) problems.push(`empty ${block.type} block`);
  if (block.type === 'table') {
    if (block.columns.length === 0 || block.rows.length === 0)
      problems.push(`table "${block.caption}" is empty`);
    for (const row of block.rows) {
      if (row.length !== block.columns.length)
        problems.push(`table "${block.caption}" row "${row[0]}" has ${row.length} cells`);
    }
  }
  for (const text of blockTexts(block))
    problems.push(...textProblems(text, `a ${block.type} block`));
  return problems;
}

export interface DocPageRules {
  /** How many sections the page may have; any number above zero when left out. */
  sections?: { min: number; max: number };
}

/** Everything that would make a page break the content contract or render badly; empty when sound. */
export function docPageProblems(page: DocPage, rules: DocPageRules = {}): string[] {
  const problems: string[] = [];
  if (findRoute(page.path)?.path !== page.path)
    problems.push(`path ${page.path} is not in the route table`);
  if (page.heading.trim() === '' || page.lead.trim() === '') problems.push('empty heading or lead');
  for (const text of [page.heading, page.lead]) {
    if (text.trim() !== '') problems.push(...textProblems(text, 'the heading or lead'));
  }
  if (page.sections.length === 0) problems.push('no sections');
  else if (
    rules.sections &&
    (page.sections.length < rules.sections.min || page.sections.length > rules.sections.max)
  )
    problems.push(
      `${page.sections.length} sections (${rules.sections.min}–${rules.sections.max} expected)`,
    );
  const ids = new Set<string>();
  for (const section of page.sections) {
    if (!kebabCase.test(section.id)) problems.push(`section id "${section.id}" is not kebab-case`);
    if (ids.has(section.id)) problems.push(`section id "${section.id}" is repeated`);
    ids.add(section.id);
    if (section.heading.trim() === '') problems.push(`section "${section.id}" has no heading`);
    else problems.push(...textProblems(section.heading, `the heading of "${section.id}"`));
    if (section.blocks.length === 0) problems.push(`section "${section.id}" has no blocks`);
    for (const block of section.blocks) problems.push(...blockProblems(block));
  }
  return problems;
}
