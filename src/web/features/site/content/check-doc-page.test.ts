import { describe, expect, it } from 'vitest';
import { docPageLinks, docPageProblems, docPageTexts } from './check-doc-page';
import type { DocPage } from './types';

const sound: DocPage = {
  path: '/data-hosting',
  heading: 'Heading',
  lead: 'Lead with [a link](/data-encryption#at-rest).',
  sections: [
    { id: 'one', heading: 'One', blocks: [{ type: 'paragraph', text: 'Text.' }] },
    {
      id: 'two',
      heading: 'Two',
      blocks: [{ type: 'code', code: 'npm start', caption: 'See [notes](https://example.com)' }],
    },
  ],
};

describe('docPageProblems', () => {
  it('accepts a sound page', () => {
    expect(docPageProblems(sound)).toEqual([]);
    expect(docPageProblems(sound, { sections: { min: 2, max: 2 } })).toEqual([]);
  });

  it('reports every kind of broken page, in page order', () => {
    const broken: DocPage = {
      path: '/no-such-page',
      heading: 'Broken',
      lead: 'A page that breaks every rule.',
      sections: [
        { id: 'Not_Kebab', heading: 'One', blocks: [{ type: 'paragraph', text: '' }] },
        { id: 'twice', heading: 'Two', blocks: [{ type: 'list', items: [] }] },
        {
          id: 'twice',
          heading: 'Three',
          blocks: [
            {
              type: 'paragraph',
              text: 'See [nowhere](/nowhere), [script](javascript:void), [mail](mailto:nobody), [](https://example.com) and [ftp](ftp://x).',
            },
            { type: 'table', caption: 'Short row', columns: ['A', 'B'], rows: [['only one']] },
            { type: 'table', caption: 'No rows', columns: ['A'], rows: [] },
            { type: 'code', code: '   ' },
          ],
        },
        { id: 'empty', heading: '', blocks: [] },
        { id: 'markup', heading: 'Markup', blocks: [{ type: 'paragraph', text: '**bold `code' }] },
        { id: 'bold', heading: 'Bold', blocks: [{ type: 'list', items: ['**half bold'] }] },
      ],
    };
    expect(docPageProblems(broken)).toEqual([
      'path /no-such-page is not in the route table',
      'section id "Not_Kebab" is not kebab-case',
      'empty text in a paragraph block',
      'empty list block',
      'section id "twice" is repeated',
      'unknown internal link /nowhere',
      'link javascript:void is not an internal path, https or mailto',
      'bad mail link mailto:nobody',
      'link to https://example.com has no text',
      'link ftp://x is not an internal path, https or mailto',
      'table "Short row" row "only one" has 1 cells',
      'table "No rows" is empty',
      'empty code block',
      'section "empty" has no heading',
      'section "empty" has no blocks',
      'unbalanced code span: **bold `code',
      'unbalanced bold: **bold `code',
      'unbalanced bold: **half bold',
    ]);
  });

  it('checks the heading and lead', () => {
    expect(docPageProblems({ ...sound, heading: ' ', lead: 'See [x](/nowhere)' })).toEqual([
      'empty heading or lead',
      'unknown internal link /nowhere',
    ]);
    expect(docPageProblems({ ...sound, sections: [] })).toEqual(['no sections']);
  });

  it('enforces a section count only when asked', () => {
    expect(docPageProblems(sound, { sections: { min: 4, max: 8 } })).toEqual([
      '2 sections (4–8 expected)',
    ]);
    expect(docPageProblems(sound, { sections: { min: 1, max: 1 } })).toEqual([
      '2 sections (1–1 expected)',
    ]);
  });
});

describe('docPageTexts and docPageLinks', () => {
  it('collect the heading, lead, section headings and the inline text of every block', () => {
    expect(docPageTexts(sound)).toEqual([
      'Heading',
      'Lead with [a link](/data-encryption#at-rest).',
      'One',
      'Text.',
      'Two',
      'See [notes](https://example.com)',
    ]);
    expect(docPageLinks(sound)).toEqual(['/data-encryption#at-rest', 'https://example.com']);
  });
});
