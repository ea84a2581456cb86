import { describe, expect, it } from 'vitest';
import type { AiProvider, AiRequest } from '../../ai/provider';
import { adaptTestLesson } from '../adapt-test-lesson';
import { wordsOf } from '../text';
import { makeAccessible } from './accessible-stage';
import { splitSentences } from '../text';
import { markdownToPlainText } from '../text';

const offline = { ai: null, apertiumBinary: '/nonexistent/apertium' };

function longestSentence(markdown: string): number {
  return Math.max(...splitSentences(markdownToPlainText(markdown)).map((s) => wordsOf(s).length));
}

describe('makeAccessible', () => {
  it('measures the reading grade before and after and lowers it', async () => {
    const { lesson, report } = await makeAccessible(
      adaptTestLesson(),
      { profile: 'none', targetGrade: 8, translateTo: null },
      offline,
    );
    expect(lesson.readingLevel.target).toBe(8);
    expect(lesson.readingLevel.after.grade).toBeLessThan(lesson.readingLevel.before.grade);
    expect(report.stage).toBe('accessible');
    expect(report.changes[0]).toMatch(/^Reading grade \d+(\.\d)? → \d+(\.\d)? \(target 8\)\.$/);
    expect(lesson.sections[0]!.body).toContain('use the energy of sunlight');
    expect(lesson.sections.every((s) => s.screens.length === 1 && s.checklist.length === 0)).toBe(
      true,
    );
  });

  it('ADHD: one idea per screen, a checklist item per screen and time estimates', async () => {
    const { lesson } = await makeAccessible(
      adaptTestLesson(),
      { profile: 'adhd', targetGrade: 8, translateTo: null },
      offline,
    );
    const first = lesson.sections[0]!;
    expect(first.screens.length).toBeGreaterThanOrEqual(2);
    for (const screen of first.screens) expect(wordsOf(screen).length).toBeLessThanOrEqual(60);
    expect(first.checklist).toHaveLength(first.screens.length);
    expect(first.checklist[0]).toMatch(/^Photosynthesis is /);
    expect(first.minutes).toBeGreaterThanOrEqual(1);
    // The list stays on one screen with its lead-in on another.
    expect(lesson.sections[1]!.screens).toContain(
      '- The thylakoid membranes capture light.\n- The stroma holds the enzymes of the Calvin cycle.',
    );
  });

  it('dyslexia: sentences of at most 15 words where a split point allows', async () => {
    const source = adaptTestLesson();
    const { lesson } = await makeAccessible(
      source,
      { profile: 'dyslexia', targetGrade: 10, translateTo: null },
      offline,
    );
    expect(longestSentence(source.sections[0]!.body)).toBeGreaterThan(15);
    expect(longestSentence(lesson.sections[0]!.body)).toBeLessThan(
      longestSentence(source.sections[0]!.body),
    );
    expect(lesson.sections[0]!.minutes).toBeGreaterThanOrEqual(
      (
        await makeAccessible(
          source,
          { profile: 'none', targetGrade: 10, translateTo: null },
          offline,
        )
      ).lesson.sections[0]!.minutes,
    );
  });

  it('ELL: simple glossary definitions, and says when no translator is configured', async () => {
    const { lesson, report } = await makeAccessible(
      adaptTestLesson(),
      { profile: 'ell', targetGrade: 8, translateTo: 'es' },
      offline,
    );
    const chlorophyll = lesson.glossary.find((g) => g.term === 'chlorophyll')!;
    expect(chlorophyll.simpleDefinition).toBeDefined();
    expect(wordsOf(chlorophyll.simpleDefinition!).length).toBeLessThanOrEqual(13);
    expect(chlorophyll.simpleDefinition).toMatch(
      /^The green pigment in chloroplasts that absorbs light energy/,
    );
    expect(lesson.translation).toBeNull();
    expect(lesson.notices).toContain(
      'No translator is configured for English → Spanish: install the Apertium language pair ' +
        '(e.g. the Debian package apertium-eng-spa) or configure a model provider.',
    );
    expect(report.changes.join(' ')).not.toMatch(/Translated/);
  });

  it('ELL: translates with the model provider when Apertium has no pair', async () => {
    const requests: AiRequest[] = [];
    const ai: AiProvider = {
      configured: () => true,
      engines: () => [
        { kind: 'model', label: 'Provider B · test-model', provider: 'B', model: 'test-model' },
      ],
      async generate(request) {
        requests.push(request);
        return { text: `ES: ${request.messages[0]!.content}`, engine: this.engines('general')[0]! };
      },
      stream: () => Promise.reject(new Error('not used')),
    };
    const { lesson, report } = await makeAccessible(
      adaptTestLesson(),
      { profile: 'ell', targetGrade: 8, translateTo: 'es' },
      { ai, apertiumBinary: '/nonexistent/apertium' },
    );
    expect(lesson.translation?.title).toBe('ES: Photosynthesis');
    expect(lesson.translation?.engine.label).toBe('Provider B · test-model');
    expect(requests[0]!.system).toMatch(/into Spanish/);
    expect(report.changes).toContain('Translated into Spanish with Provider B · test-model.');
  });

  it('ELL: translates offline with Apertium when the eng-spa pair is installed', async () => {
    const { lesson } = await makeAccessible(
      adaptTestLesson(),
      { profile: 'ell', targetGrade: 8, translateTo: 'es' },
      { ai: null },
    );
    expect(lesson.translation?.engine.label).toBe('Apertium (offline)');
    expect(lesson.translation?.title).toBe('Fotosíntesis');
    expect(lesson.translation?.sections[1]!.body).toContain('- ');
  });
});
