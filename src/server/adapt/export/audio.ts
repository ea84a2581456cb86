/**
 * MP3 narration of a lesson, offline: Flite's "slt" voice speaks each sentence (title, headings,
 * the sections' prose), or meSpeak when Flite is not installed or fails (decision 0519); lamejs
 * encodes the joined samples, and the timing of every sentence is kept so the HTML export's
 * read-along mode can highlight the one being spoken (decision 0512).
 */
import { createRequire } from 'node:module';
import { Mp3Encoder } from '@breezystack/lamejs';
import meSpeak from 'mespeak';
import type { Logger } from '../../logger';
import type { LessonSection } from '../lesson';
import { FLITE_VOICE, FliteMissingError, fliteWav } from './flite';
import { spokenSentencesOf, stripInlineMarkup } from '../text';

export interface SentenceTiming {
  /** Position in the lesson's reading order, from 0; the HTML export numbers its spans so. */
  index: number;
  sectionId: string | null;
  text: string;
  /**
   * Seconds from the start of the MP3 as a player decodes it, to the first and last sound of
   * the sentence's speech (the pause around it belongs to no sentence).
   */
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

/** Which voice narrates; `ADAPT_NARRATION_VOICE` in the configuration. */
export interface NarrationSettings {
  /** `flite`: Flite when it is installed and works, meSpeak otherwise; `mespeak`: meSpeak only. */
  voice: 'flite' | 'mespeak';
  /** The Flite binary, looked up on PATH by default. */
  fliteBinary?: string;
  /** Told which voice narrates the first time, and again whenever that changes. */
  log?: Logger;
}

export interface AudioOptions {
  /** Words a minute; slower for the dyslexia and ELL profiles. */
  wordsPerMinute?: number;
  kbps?: number;
  narration?: NarrationSettings;
}

const VOICE = 'en/en-us';
/**
 * Silence between two sentences' speech: the pause added, plus the margins kept around each
 * sentence's speech (about 0.65 s; meSpeak's own trailing silence made it 0.7 s before 0519).
 */
const PAUSE_SECONDS = 0.55;
const MARGIN_SECONDS = 0.05;
/** A 10 ms window quieter than this RMS (about −40 dBFS) counts as silence. */
const SILENCE_RMS = 300;
const WINDOW_SECONDS = 0.01;
/**
 * lamejs's encoder delay (576 samples) and the MPEG decoder's (529) put every sound 1,105
 * samples later in the decoded MP3 than in the samples encoded; lamejs writes no LAME tag
 * saying so, so players (Chromium, ffmpeg) keep the delay and the timings must include it.
 */
export const MP3_DELAY_SAMPLES = 1105;
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

export interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

/** The 16-bit mono samples of a WAV file, as meSpeak and Flite make them. */
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

interface Voice {
  name: string;
  speak(text: string, wordsPerMinute: number): Promise<Pcm>;
}

const MESPEAK_NAME = `meSpeak ${VOICE}`;
const FLITE_NAME = `Flite ${FLITE_VOICE}`;

const meSpeakVoice: Voice = {
  name: MESPEAK_NAME,
  speak: async (text, wordsPerMinute) => {
    loadEngine();
    const wav = meSpeak.speak(text, { rawdata: 'array', speed: wordsPerMinute, voice: VOICE });
    if (!wav) throw new Error(`The speech engine could not speak “${text.slice(0, 60)}”.`);
    return wavSamples(wav instanceof Uint8Array ? wav : Uint8Array.from(wav));
  },
};

function fliteVoice(binary: string): Voice {
  return {
    name: FLITE_NAME,
    speak: async (text, wordsPerMinute) =>
      wavSamples(await fliteWav(text, { binary, wordsPerMinute })),
  };
}

const DEFAULT_NARRATION: NarrationSettings = { voice: 'flite' };
/** The voice each logger was last told of (a process has one logger; tests have several). */
const announced = new WeakMap<Logger, string>();

/**
 * Runs the work with Flite, or with meSpeak when Flite is not wanted, missing or fails: the
 * whole work again, so one MP3 never mixes two voices (or their two sample rates).
 */
async function withVoice<T>(
  settings: NarrationSettings,
  work: (voice: Voice) => Promise<T>,
): Promise<{ result: T; voice: string }> {
  let reason = 'ADAPT_NARRATION_VOICE is mespeak';
  if (settings.voice === 'flite') {
    const binary = settings.fliteBinary ?? 'flite';
    try {
      const result = await work(fliteVoice(binary));
      announce(settings.log, FLITE_NAME, `Flite (${binary})`);
      return { result, voice: FLITE_NAME };
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
      // A missing binary is the expected state of a machine without Flite, said once below; a
      // failure of an installed Flite is worth a warning each time.
      if (!(error instanceof FliteMissingError)) {
        settings.log?.warn('LE Adapt narration: Flite failed, meSpeak narrates instead', {
          reason,
        });
      }
    }
  }
  const result = await work(meSpeakVoice);
  announce(settings.log, MESPEAK_NAME, reason);
  return { result, voice: MESPEAK_NAME };
}

function announce(log: Logger | undefined, voice: string, why: string) {
  if (!log || announced.get(log) === voice) return;
  announced.set(log, voice);
  log.info('LE Adapt narration voice', { voice, why });
}

/** One sentence spoken as 16-bit samples, with the voice that spoke it. */
export async function speak(
  text: string,
  wordsPerMinute = 160,
  settings: NarrationSettings = DEFAULT_NARRATION,
): Promise<Pcm & { voice: string }> {
  const { result, voice } = await withVoice(settings, (v) => v.speak(text, wordsPerMinute));
  return { ...result, voice };
}

/**
 * The first and last sample of speech (windows louder than silence): Flite pads each sentence
 * with about 0.3 s of silence before and 0.2 s after, meSpeak with 0.35 s after, and a
 * highlight must follow the voice, not the padding. Null when the samples are all silence.
 */
export function speechBounds(
  samples: Int16Array,
  sampleRate: number,
  from = 0,
  to = samples.length,
): { start: number; end: number } | null {
  const window = Math.max(1, Math.round(WINDOW_SECONDS * sampleRate));
  let start = -1;
  let end = -1;
  for (let at = from; at < to; at += window) {
    const stop = Math.min(at + window, to);
    let energy = 0;
    for (let i = at; i < stop; i++) energy += samples[i]! * samples[i]!;
    if (Math.sqrt(energy / (stop - at)) < SILENCE_RMS) continue;
    if (start < 0) start = at;
    end = stop;
  }
  return start < 0 ? null : { start, end };
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

export async function lessonAudio(
  lesson: Narratable,
  options: AudioOptions = {},
): Promise<LessonAudio> {
  const { result, voice } = await withVoice(options.narration ?? DEFAULT_NARRATION, (v) =>
    narrate(lesson, v, options.wordsPerMinute ?? 160),
  );
  const { samples, sampleRate, sentences } = result;
  return {
    mp3: encodeMp3(samples, sampleRate, options.kbps),
    durationSeconds: round((samples.length + MP3_DELAY_SAMPLES) / sampleRate),
    sentences,
    voice,
  };
}

async function narrate(
  lesson: Narratable,
  voice: Voice,
  wordsPerMinute: number,
): Promise<Pcm & { sentences: SentenceTiming[] }> {
  const parts: Int16Array[] = [];
  const sentences: SentenceTiming[] = [];
  let sampleRate = 0;
  let position = 0;
  const delay = MP3_DELAY_SAMPLES;
  for (const [index, sentence] of spokenSentences(lesson).entries()) {
    const pcm = await voice.speak(sentence.text, wordsPerMinute);
    if (sampleRate && pcm.sampleRate !== sampleRate) {
      throw new Error(`${voice.name} changed its sample rate within one lesson.`);
    }
    sampleRate ||= pcm.sampleRate;
    const margin = Math.round(MARGIN_SECONDS * sampleRate);
    const speech = speechBounds(pcm.samples, sampleRate) ?? { start: 0, end: pcm.samples.length };
    const kept = pcm.samples.subarray(
      Math.max(0, speech.start - margin),
      Math.min(pcm.samples.length, speech.end + margin),
    );
    const lead = speech.start - Math.max(0, speech.start - margin);
    const pause = new Int16Array(Math.round(PAUSE_SECONDS * sampleRate));
    sentences.push({
      index,
      sectionId: sentence.sectionId,
      text: sentence.text,
      start: round((position + lead + delay) / sampleRate),
      end: round((position + lead + speech.end - speech.start + delay) / sampleRate),
    });
    parts.push(kept, pause);
    position += kept.length + pause.length;
  }
  const samples = new Int16Array(position);
  let at = 0;
  for (const part of parts) {
    samples.set(part, at);
    at += part.length;
  }
  return { samples, sampleRate, sentences };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
