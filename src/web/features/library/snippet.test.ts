import { describe, expect, it } from 'vitest';
import { snippetParts } from './snippet';

describe('snippetParts', () => {
  it('marks the matches and keeps everything else as text', () => {
    expect(snippetParts('The \uE000alveoli\uE001 exchange \uE000gases\uE001.')).toEqual([
      { text: 'The ', match: false },
      { text: 'alveoli', match: true },
      { text: ' exchange ', match: false },
      { text: 'gases', match: true },
      { text: '.', match: false },
    ]);
  });

  it('leaves markup in the text as text', () => {
    expect(snippetParts('<img src=x onerror=alert(1)> \uE000cell\uE001')).toEqual([
      { text: '<img src=x onerror=alert(1)> ', match: false },
      { text: 'cell', match: true },
    ]);
  });
});
