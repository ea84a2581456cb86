import { describe, expect, it } from 'vitest';
import { lessonFileName } from './lesson-file-name';

describe('lessonFileName', () => {
  it('drops the unique prefix of an uploaded lesson file', () => {
    expect(lessonFileName('c1/lessons/c1774108-2b09-41d1-8636-78e0104c6e35-alveoli.pdf')).toBe(
      'alveoli.pdf',
    );
  });

  it('keeps a name without one, and never returns an empty name', () => {
    expect(lessonFileName('c1/reading.pdf')).toBe('reading.pdf');
    expect(lessonFileName('c1/lessons/c1774108-2b09-41d1-8636-78e0104c6e35-')).toBe(
      'c1774108-2b09-41d1-8636-78e0104c6e35-',
    );
  });
});
