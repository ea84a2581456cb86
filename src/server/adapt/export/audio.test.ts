import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MPEGDecoder } from 'mpg123-decoder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger';
import { adaptTestLesson } from '../adapt-test-lesson';
import {
  encodeMp3,
  lessonAudio,
  speak,
  speechBounds,
  spokenSentences,
  type Narratable,
} from './audio';
import { fliteText, fliteWav } from './flite';

/** Frame headers of an MPEG audio stream: 11 sync bits set. */
function frameCount(mp3: Uint8Array): number {
  let frames = 0;
  for (let i = 0; i + 1 < mp3.length; i++) {
    if (mp3[i] === 0xff && (mp3[i + 1]! & 0xe0) === 0xe0) frames++;
  }
  return frames;
}

function recordingLogger() {
  const lines: Array<{
    level: string;
    msg: string;
    voice?: string;
    why?: string;
    reason?: string;
  }> = [];
  return { lines, log: createLogger('debug', (line) => lines.push(JSON.parse(line))) };
}

const SENTENCE = 'Water boils at one hundred degrees.';

/** Stand-ins for a broken Flite: one that fails, one that hangs. */
let fakes: string;
beforeAll(async () => {
  fakes = await mkdtemp(path.join(os.tmpdir(), 'audio-test-'));
  await writeFile(path.join(fakes, 'failing'), '#!/bin/sh\necho "cannot open voice" >&2\nexit 3\n');
  await writeFile(path.join(fakes, 'hanging'), '#!/bin/sh\nexec sleep 30\n');
  await chmod(path.join(fakes, 'failing'), 0o755);
  await chmod(path.join(fakes, 'hanging'), 0o755);
});
afterAll(() => rm(fakes, { recursive: true, force: true }));

function lesson(): Narratable {
  const l = adaptTestLesson();
  return { title: l.title, sections: l.sections.slice(1) };
}

function expectOrderedTimings(audio: Awaited<ReturnType<typeof lessonAudio>>, of: Narratable) {
  expect(audio.sentences.map((s) => s.text)).toEqual(spokenSentences(of).map((s) => s.text));
  expect(audio.sentences[0]).toMatchObject({ index: 0, sectionId: null });
  for (const [i, s] of audio.sentences.entries()) {
    expect(s.end).toBeGreaterThan(s.start);
    if (i > 0) expect(s.start).toBeGreaterThan(audio.sentences[i - 1]!.end);
  }
  expect(audio.durationSeconds).toBeGreaterThan(audio.sentences.at(-1)!.end);
  expect(frameCount(audio.mp3)).toBeGreaterThan(audio.durationSeconds * 20);
}

/**
 * How far a sentence's highlight may be from its voice: sound ahead of the picture becomes
 * noticeable at about 45 ms (ITU-R BT.1359), and the check's own 10 ms windows add up to 10 ms.
 */
const TOLERANCE_SECONDS = 0.05;

/**
 * Decodes the MP3 as a player does and finds each sentence's speech by silence detection, between
 * the midpoints of the pauses around its timing: every timing must start and end within the
 * tolerance of the speech heard there.
 */
async function expectTimingsToFollowTheVoice(audio: Awaited<ReturnType<typeof lessonAudio>>) {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  const decoded = decoder.decode(audio.mp3);
  decoder.free();
  const rate = decoded.sampleRate;
  const pcm = Int16Array.from(decoded.channelData[0]!, (v) => Math.round(v * 32767));
  const at = (seconds: number) => Math.min(pcm.length, Math.round(seconds * rate));
  const drifts: string[] = [];
  let largest = 0;
  for (const [i, timing] of audio.sentences.entries()) {
    const before = audio.sentences[i - 1];
    const after = audio.sentences[i + 1];
    const from = before ? (before.end + timing.start) / 2 : 0;
    const to = after ? (timing.end + after.start) / 2 : pcm.length / rate;
    const heard = speechBounds(pcm, rate, at(from), at(to));
    expect(heard, `no speech heard for “${timing.text}”`).not.toBeNull();
    const start = heard!.start / rate - timing.start;
    const end = heard!.end / rate - timing.end;
    largest = Math.max(largest, Math.abs(start), Math.abs(end));
    if (Math.abs(start) > TOLERANCE_SECONDS || Math.abs(end) > TOLERANCE_SECONDS) {
      drifts.push(
        `${i} “${timing.text.slice(0, 30)}”: start ${start.toFixed(3)} s, end ${end.toFixed(3)} s`,
      );
    }
  }
  expect(drifts).toEqual([]);
  return largest;
}

describe('lesson audio through Flite (Debian flite, installed by .ci/run)', () => {
  it('speaks a sentence with the slt voice as 16 kHz samples, and says so once', async () => {
    const { lines, log } = recordingLogger();
    const pcm = await speak(SENTENCE, 160, { voice: 'flite', log });
    expect(pcm.voice).toBe('Flite slt');
    expect(pcm.sampleRate).toBe(16000);
    expect(pcm.samples.length / pcm.sampleRate).toBeGreaterThan(1);
    expect(pcm.samples.some((s) => Math.abs(s) > 1000)).toBe(true);
    await speak('And once more.', 160, { voice: 'flite', log });
    expect(lines).toEqual([expect.objectContaining({ level: 'info', voice: 'Flite slt' })]);
  });

  it('speaks more slowly when asked for fewer words a minute', async () => {
    const usual = await speak(SENTENCE, 160);
    const slow = await speak(SENTENCE, 120);
    expect(slow.samples.length / usual.samples.length).toBeGreaterThan(1.2);
  });

  it('narrates the lesson with one timing per spoken sentence, in order, on its voice', async () => {
    const of = lesson();
    const audio = await lessonAudio(of);
    expect(audio.voice).toBe('Flite slt');
    expectOrderedTimings(audio, of);
    await expectTimingsToFollowTheVoice(audio);
  }, 60_000);

  it('gives Flite ASCII it can say instead of bytes it speaks as noise', () => {
    expect(fliteText('The café’s “menu” — 5 €, at 100 °C…')).toBe(
      `The cafe's "menu", 5  euros , at 100  degrees C...`,
    );
  });

  it('refuses audio over the size limit and a run over the time limit', async () => {
    await expect(fliteWav(SENTENCE, { maxWavBytes: 1000 })).rejects.toThrow(
      /Flite failed: its audio \(\d+ bytes\) is over the 1000 limit/,
    );
    await expect(
      fliteWav(SENTENCE, { binary: path.join(fakes, 'hanging'), timeoutMs: 300 }),
    ).rejects.toThrow('Flite failed: took longer than 0.3 s');
  });
});

describe('lesson audio without Flite (meSpeak fallback)', () => {
  it('falls back to meSpeak when Flite is not installed, and says why once', async () => {
    const { lines, log } = recordingLogger();
    const settings = { voice: 'flite' as const, fliteBinary: '/nonexistent/flite', log };
    const pcm = await speak(SENTENCE, 160, settings);
    expect(pcm).toMatchObject({ voice: 'meSpeak en/en-us', sampleRate: 22050 });
    expect(pcm.samples.some((s) => Math.abs(s) > 1000)).toBe(true);
    await speak('And once more.', 160, settings);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        voice: 'meSpeak en/en-us',
        why: 'Flite is not installed (no “/nonexistent/flite” to run).',
      }),
    ]);
  }, 30_000);

  it('falls back to meSpeak when Flite fails, with a warning saying how', async () => {
    const { lines, log } = recordingLogger();
    const pcm = await speak(SENTENCE, 160, {
      voice: 'flite',
      fliteBinary: path.join(fakes, 'failing'),
      log,
    });
    expect(pcm.voice).toBe('meSpeak en/en-us');
    expect(lines[0]).toMatchObject({ level: 'warn', reason: 'Flite failed: cannot open voice' });
    expect(lines[1]).toMatchObject({ level: 'info', voice: 'meSpeak en/en-us' });
  }, 30_000);

  it('uses meSpeak only when the setting says so', async () => {
    const pcm = await speak(SENTENCE, 160, { voice: 'mespeak' });
    expect(pcm.voice).toBe('meSpeak en/en-us');
  }, 30_000);

  it('narrates the whole lesson with meSpeak when Flite is missing, timings on its voice', async () => {
    const of = lesson();
    const audio = await lessonAudio(of, {
      narration: { voice: 'flite', fliteBinary: '/nonexistent/flite' },
    });
    expect(audio.voice).toBe('meSpeak en/en-us');
    expectOrderedTimings(audio, of);
    await expectTimingsToFollowTheVoice(audio);
    // Speech and encoding are CPU work in JavaScript; the two shared cores make it slow here.
  }, 60_000);
});

describe('MP3 encoding', () => {
  it('encodes samples as MP3 frames', () => {
    const silence = new Int16Array(22050);
    const mp3 = encodeMp3(silence, 22050);
    expect(mp3[0]).toBe(0xff);
    expect(frameCount(mp3)).toBeGreaterThan(10);
  });
});
