/**
 * Debian's `flite` binary speaking one text with its built-in "slt" voice (decision 0519). The
 * text goes through a file and the WAV comes back through one: no shell, no text on the command
 * line, a time limit, and an output size limit checked before the file is read.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const FLITE_VOICE = 'slt';
/** Words a minute slt speaks at duration_stretch 1, measured on the test lesson's prose. */
const FLITE_WORDS_PER_MINUTE = 190;
/** Ten minutes of 16 kHz 16-bit mono: far more than one sentence ever needs. */
export const FLITE_MAX_WAV_BYTES = 10 * 60 * 16_000 * 2;
export const FLITE_TIMEOUT_MS = 60_000;

/** Flite is not installed (or not at the configured path): narration uses meSpeak instead. */
export class FliteMissingError extends Error {
  constructor(binary: string) {
    super(`Flite is not installed (no “${binary}” to run).`);
    this.name = 'FliteMissingError';
  }
}

export interface FliteOptions {
  binary?: string;
  wordsPerMinute?: number;
  timeoutMs?: number;
  maxWavBytes?: number;
}

function run(binary: string, args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      args,
      // Flite prints nothing on success; a small buffer bounds what an error may print.
      { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(new FliteMissingError(binary));
        }
        const reason = error.killed
          ? `took longer than ${timeoutMs / 1000} s`
          : (stderr.trim().split('\n').at(-1) ?? '') || error.message;
        reject(new Error(`Flite failed: ${reason}`.slice(0, 300)));
      },
    );
  });
}

const SPOKEN_SYMBOLS: Record<string, string> = {
  '€': ' euros ',
  '£': ' pounds ',
  '°': ' degrees ',
  '×': ' times ',
  '±': ' plus or minus ',
  '§': ' section ',
};

/**
 * The text as Flite can read it: its English front end knows ASCII only and speaks any other
 * byte as noise, so accents are dropped (café → cafe), typographic quotes and dashes become
 * their ASCII forms, a few symbols become words, and anything else becomes a space.
 */
export function fliteText(text: string): string {
  return text
    .replace(/[€£°×±§]/g, (symbol) => SPOKEN_SYMBOLS[symbol]!)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[‘’‚‛′]/g, "'")
    .replace(/[“”„‟″«»]/g, '"')
    .replace(/\s*[–—―]\s*/g, ', ')
    .replace(/…/g, '...')
    .replace(/[^\x20-\x7e\n]/g, ' ');
}

/** The WAV file (16 kHz, 16-bit mono) Flite makes of the text. */
export async function fliteWav(text: string, options: FliteOptions = {}): Promise<Uint8Array> {
  const binary = options.binary ?? 'flite';
  const timeoutMs = options.timeoutMs ?? FLITE_TIMEOUT_MS;
  const maxWavBytes = options.maxWavBytes ?? FLITE_MAX_WAV_BYTES;
  const stretch = FLITE_WORDS_PER_MINUTE / (options.wordsPerMinute ?? FLITE_WORDS_PER_MINUTE);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lyceum-flite-'));
  try {
    const input = path.join(dir, 'text.txt');
    const output = path.join(dir, 'speech.wav');
    await writeFile(input, fliteText(text), 'utf8');
    await run(
      binary,
      [
        '-voice',
        FLITE_VOICE,
        '--setf',
        `duration_stretch=${stretch.toFixed(3)}`,
        '-f',
        input,
        '-o',
        output,
      ],
      timeoutMs,
    );
    const { size } = await stat(output).catch(() => {
      throw new Error('Flite failed: it wrote no audio.');
    });
    if (size > maxWavBytes) {
      throw new Error(`Flite failed: its audio (${size} bytes) is over the ${maxWavBytes} limit.`);
    }
    return new Uint8Array(await readFile(output));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
