import { describe, expect, it } from 'vitest';
import { adaptTestLesson } from '../adapt-test-lesson';
import { encodeMp3, lessonAudio, speak, spokenSentences } from './audio';

/** Frame headers of an MPEG audio stream: 11 sync bits set. */
function frameCount(mp3: Uint8Array): number {
  let frames = 0;
  for (let i = 0; i + 1 < mp3.length; i++) {
    if (mp3[i] === 0xff && (mp3[i + 1]! & 0xe0) === 0xe0) frames++;
  }
  return frames;
}

describe('lesson audio', () => {
  it('speaks a sentence as 16-bit samples', () => {
    const pcm = speak('Water boils at one hundred degrees.');
    expect(pcm.sampleRate).toBe(22050);
    expect(pcm.samples.length / pcm.sampleRate).toBeGreaterThan(1);
    expect(pcm.samples.some((s) => Math.abs(s) > 1000)).toBe(true);
  }, 30_000);

  it('encodes samples as MP3 frames', () => {
    const silence = new Int16Array(22050);
    const mp3 = encodeMp3(silence, 22050);
    expect(mp3[0]).toBe(0xff);
    expect(frameCount(mp3)).toBeGreaterThan(10);
  });

  it('narrates the lesson with one timing per spoken sentence, in order', () => {
    const lesson = adaptTestLesson();
    const audio = lessonAudio({ title: lesson.title, sections: lesson.sections.slice(1) });
    const expected = spokenSentences({ title: lesson.title, sections: lesson.sections.slice(1) });
    expect(audio.sentences.map((s) => s.text)).toEqual(expected.map((s) => s.text));
    expect(audio.sentences[0]).toMatchObject({ index: 0, sectionId: null, start: 0 });
    for (const [i, s] of audio.sentences.entries()) {
      expect(s.end).toBeGreaterThan(s.start);
      if (i > 0) expect(s.start).toBeGreaterThan(audio.sentences[i - 1]!.end);
    }
    expect(audio.durationSeconds).toBeGreaterThan(audio.sentences.at(-1)!.end);
    expect(frameCount(audio.mp3)).toBeGreaterThan(audio.durationSeconds * 20);
    // Speech and encoding are CPU work in JavaScript; the two shared cores make it slow here.
  }, 60_000);
});
