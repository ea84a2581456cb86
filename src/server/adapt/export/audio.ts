/**
 * MP3 narration of a lesson, offline: meSpeak speaks each sentence (title, headings, the
 * sections' prose), lamejs encodes the joined samples, and the timing of every sentence is
 * kept so the HTML export's read-along mode can highlight the one being spoken (decision 0512).
 */
import { createRequire } from 'node:module';
import { Mp3Encoder } from '@breezystack/lamejs';
import meSpeak from 'mespeak';
import type { LessonSection } from '../lesson';
import { spokenSentencesOf, stripInlineMarkup } from '../text';

export interface SentenceTiming {
  /** Position in the lesson's reading order, from 0; the HTML export numbers its spans so. */
  index: number;
  sectionId: string | null;
  text: string;
  /** Seconds from the start of the MP3. */
  start: number;
  end: number;
}

export interface LessonAudio {
  mp3: Uint8Array;
  durationSeconds: number;
  sentences: SentenceTiming[];
  voice: string;
}

/** What narration reads: a lesson of any stage, or its translation. */
export interface Narratable {
  title: string;
  sections: ReadonlyArray<Pick<LessonSection, 'id' | 'heading' | 'body'> & { screens?: string[] }>;
}

/** A section's Markdown as laid out: its screens (ADHD) or its body. */
export function sectionMarkdown(section: { body: string; screens?: string[] }): string {
  return section.screens && section.screens.length > 1
    ? section.screens.join('\n\n')
    : section.body;
}

export interface AudioOptions {
  /** Words a minute; slower for the dyslexia and ELL profiles. */
  wordsPerMinute?: number;
  kbps?: number;
}

const VOICE = 'en/en-us';
const PAUSE_SECONDS = 0.35;
const require = createRequire(import.meta.url);

function loadEngine() {
  if (!meSpeak.isConfigLoaded()) {
    meSpeak.loadConfig(require('mespeak/src/mespeak_config.json') as object);
  }
  if (!meSpeak.isVoiceLoaded(VOICE)) {
    meSpeak.loadVoice(require('mespeak/voices/en/en-us.json') as object);
  }
}

/** The sentences a listener hears, in reading order, as the HTML export lays them out. */
export function spokenSentences(
  lesson: Narratable,
): Array<{ sectionId: string | null; text: string }> {
  const sentences: Array<{ sectionId: string | null; text: string }> = [
    { sectionId: null, text: lesson.title },
  ];
  for (const section of lesson.sections) {
    sentences.push({ sectionId: section.id, text: section.heading });
    for (const text of spokenSentencesOf(sectionMarkdown(section))) {
      sentences.push({ sectionId: section.id, text: stripInlineMarkup(text) });
    }
  }
  return sentences;
}

interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

/** The 16-bit mono samples of the WAV file meSpeak returns. */
export function wavSamples(wav: Uint8Array): Pcm {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const sampleRate = view.getUint32(24, true);
  let offset = 12;
  while (offset + 8 <= wav.byteLength) {
    const id = String.fromCharCode(...wav.subarray(offset, offset + 4));
    const size = view.getUint32(offset + 4, true);
    if (id === 'data') {
      const length = Math.min(size, wav.byteLength - offset - 8) >> 1;
      const samples = new Int16Array(length);
      for (let i = 0; i < length; i++) samples[i] = view.getInt16(offset + 8 + i * 2, true);
      return { samples, sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('The speech engine returned audio without samples.');
}

export function speak(text: string, wordsPerMinute = 160): Pcm {
  loadEngine();
  const wav = meSpeak.speak(text, { rawdata: 'array', speed: wordsPerMinute, voice: VOICE });
  if (!wav) throw new Error(`The speech engine could not speak “${text.slice(0, 60)}”.`);
  return wavSamples(wav instanceof Uint8Array ? wav : Uint8Array.from(wav));
}

const FRAME = 1152;

export function encodeMp3(samples: Int16Array, sampleRate: number, kbps = 48): Uint8Array {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < samples.length; i += FRAME) {
    const chunk = encoder.encodeBuffer(samples.subarray(i, i + FRAME));
    if (chunk.length) chunks.push(chunk);
  }
  const last = encoder.flush();
  if (last.length) chunks.push(last);
  const mp3 = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    mp3.set(chunk, at);
    at += chunk.length;
  }
  return mp3;
}

export function lessonAudio(lesson: Narratable, options: AudioOptions = {}): LessonAudio {
  const parts: Int16Array[] = [];
  const sentences: SentenceTiming[] = [];
  let sampleRate = 0;
  let position = 0;
  for (const [index, sentence] of spokenSentences(lesson).entries()) {
    const pcm = speak(sentence.text, options.wordsPerMinute);
    sampleRate ||= pcm.sampleRate;
    const pause = new Int16Array(Math.round(PAUSE_SECONDS * sampleRate));
    sentences.push({
      index,
      sectionId: sentence.sectionId,
      text: sentence.text,
      start: round(position / sampleRate),
      end: round((position + pcm.samples.length) / sampleRate),
    });
    parts.push(pcm.samples, pause);
    position += pcm.samples.length + pause.length;
  }
  const samples = new Int16Array(position);
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return {
    mp3: encodeMp3(samples, sampleRate, options.kbps),
    durationSeconds: round(position / sampleRate),
    sentences,
    voice: `meSpeak ${VOICE}`,
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
