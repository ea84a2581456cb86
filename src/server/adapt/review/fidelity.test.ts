import { describe, expect, it } from 'vitest';
import type { ExtractedText } from '../lesson';
import { checkFidelity, keyFactsOf } from './fidelity';

const source: ExtractedText = {
  format: 'pdf',
  title: 'Photosynthesis',
  blocks: [
    {
      text:
        'Photosynthesis was described by Jan Ingenhousz in 1779. A leaf converts about 3.5 percent ' +
        'of sunlight, and the Amazon holds 390,000,000,000 trees. The exam is on 12 March 2027.',
      source: { kind: 'page', page: 1 },
    },
    { text: '2', source: { kind: 'page', page: 2 } },
  ],
};

function kinds(facts: ReturnType<typeof keyFactsOf>) {
  return facts.map((f) => `${f.kind}:${f.text}`);
}

describe('keyFactsOf', () => {
  it('finds numbers, dates, names and key terms, skipping page numbers', () => {
    const facts = keyFactsOf(source, ['chlorophyll']);
    expect(kinds(facts)).toEqual(
      expect.arrayContaining([
        'name:Jan Ingenhousz',
        'name:Amazon',
        'number:1779',
        'number:3.5',
        'number:390,000,000,000',
        'date:12 March 2027',
        'term:chlorophyll',
      ]),
    );
    expect(kinds(facts)).not.toContain('number:2');
    expect(kinds(facts)).not.toContain('name:Photosynthesis');
    expect(facts.find((f) => f.text === '1779')?.source).toEqual({ kind: 'page', page: 1 });
  });
});

describe('checkFidelity', () => {
  const facts = keyFactsOf(source, ['chlorophyll']);
  const faithful =
    'Jan Ingenhousz described photosynthesis in 1779. A leaf turns about 3.5 percent of sunlight ' +
    'into energy. The Amazon holds 390000000000 trees. The exam is on March 12, 2027. ' +
    'Chlorophyll is green.';

  it('passes when every fact is still there, in other words or formats', () => {
    expect(checkFidelity(facts, faithful)).toMatchObject({ passed: true, lost: [] });
  });

  it('lists a dropped number', () => {
    const report = checkFidelity(facts, faithful.replace('3.5 percent', 'some'));
    expect(report.passed).toBe(false);
    expect(kinds(report.lost)).toEqual(['number:3.5']);
  });

  it('lists a dropped name', () => {
    const report = checkFidelity(facts, faithful.replace('Jan Ingenhousz', 'A scientist'));
    expect(report.passed).toBe(false);
    expect(kinds(report.lost)).toEqual(['name:Jan Ingenhousz']);
  });

  it('lists a dropped date and key term', () => {
    const report = checkFidelity(
      facts,
      faithful.replace('March 12, 2027', 'next spring').replace('Chlorophyll', 'It'),
    );
    expect(kinds(report.lost)).toEqual(['date:12 March 2027', 'term:chlorophyll']);
  });
});
