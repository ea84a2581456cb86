/**
 * The reading level of lesson text: the Flesch–Kincaid grade over the sentences, words and
 * syllables of the Markdown's prose (code blocks and markup left out), so stage 3 can show the
 * level before and after simplification.
 */
import { fleschKincaid } from 'flesch-kincaid';
import { syllable } from 'syllable';
import type { ReadabilityScore } from '../lesson';
import { markdownToPlainText, splitSentences, wordsOf } from '../text';

export function measureReadability(markdown: string): ReadabilityScore {
  const sentences = splitSentences(markdownToPlainText(markdown));
  let words = 0;
  let syllables = 0;
  for (const sentence of sentences) {
    for (const word of wordsOf(sentence)) {
      words += 1;
      // A number is read as one word; syllable() would count its digits as none.
      syllables += /^[\p{L}'’-]+$/u.test(word) ? Math.max(1, syllable(word)) : 1;
    }
  }
  if (words === 0) return { grade: 0, words: 0, sentences: 0, syllables: 0 };
  const grade = fleschKincaid({ sentence: sentences.length, word: words, syllable: syllables });
  return {
    grade: Math.round(Math.max(0, grade) * 10) / 10,
    words,
    sentences: sentences.length,
    syllables,
  };
}
