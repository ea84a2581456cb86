/**
 * Translation for the English-language-learner profile: Apertium offline when the language
 * pair is installed (Debian's apertium-eng-spa and friends), otherwise the configured model
 * provider, otherwise a clear "no translator is configured".
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AiProvider, EngineInfo } from '../../ai/provider';

export interface Translator {
  engine: EngineInfo;
  /** Each Markdown text translated from English, in order. */
  translate(texts: string[], to: string): Promise<string[]>;
}

export class NoTranslatorError extends Error {
  constructor(language: string) {
    super(
      `No translator is configured for English → ${languageName(language)}: install the ` +
        `Apertium language pair (e.g. the Debian package apertium-eng-${apertiumCode(language) ?? language}) ` +
        `or configure a model provider.`,
    );
    this.name = 'NoTranslatorError';
  }
}

/** ISO 639-1 codes the UI offers, with Apertium's three-letter names. */
export const TRANSLATION_LANGUAGES: Record<string, { name: string; apertium: string }> = {
  es: { name: 'Spanish', apertium: 'spa' },
  ca: { name: 'Catalan', apertium: 'cat' },
  fr: { name: 'French', apertium: 'fra' },
  pt: { name: 'Portuguese', apertium: 'por' },
  it: { name: 'Italian', apertium: 'ita' },
  eo: { name: 'Esperanto', apertium: 'epo' },
};

function apertiumCode(language: string): string | undefined {
  return TRANSLATION_LANGUAGES[language]?.apertium;
}

export function languageName(language: string): string {
  return TRANSLATION_LANGUAGES[language]?.name ?? language;
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
  });
}

/**
 * WORKAROUND(apertium-stdin): the apertium script reads `/dev/stdin` by name, which cannot be
 * opened when stdin is the socket Node gives a child; so the text goes through a file.
 */
async function runApertium(binary: string, mode: string, text: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lyceum-apertium-'));
  try {
    const input = path.join(dir, 'input.txt');
    await writeFile(input, text, 'utf8');
    return await run(binary, ['-u', mode, input]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The Apertium modes installed here ("eng-spa", …); none when Apertium is not installed. */
export async function apertiumModes(binary = 'apertium'): Promise<string[]> {
  try {
    const listing = await run(binary, ['-l']);
    return listing
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  } catch {
    return [];
  }
}

const SEPARATOR = '§§§';

export function apertiumTranslator(binary = 'apertium'): Translator {
  return {
    engine: { kind: 'offline', label: 'Apertium (offline)' },
    async translate(texts, to) {
      const mode = `eng-${apertiumCode(to) ?? to}`;
      // One run for the whole lesson (each run loads the pair's dictionaries, about half a
      // second); a separator line Apertium passes through untouched keeps the texts apart.
      const joined = await runApertium(binary, mode, texts.join(`\n\n${SEPARATOR}\n\n`));
      const parts = joined.split(new RegExp(`\\s*${SEPARATOR}\\s*`));
      if (parts.length === texts.length) return parts.map((p) => p.trim());
      const translated: string[] = [];
      for (const text of texts) {
        translated.push(text.trim() ? (await runApertium(binary, mode, text)).trim() : text);
      }
      return translated;
    },
  };
}

export function providerTranslator(ai: AiProvider): Translator {
  const engine = ai.engines('general')[0] ?? { kind: 'model' as const, label: 'Model provider' };
  return {
    engine,
    async translate(texts, to) {
      const translated: string[] = [];
      for (const text of texts) {
        if (!text.trim()) {
          translated.push(text);
          continue;
        }
        const reply = await ai.generate({
          route: 'general',
          system:
            `Translate the user's Markdown from English into ${languageName(to)}. Keep the ` +
            'Markdown structure, numbers, dates and names exactly. Reply with the translation only.',
          messages: [{ role: 'user', content: text }],
        });
        translated.push(reply.text.trim());
      }
      return translated;
    },
  };
}

/** The first translator that can translate English into `language`, or an error saying none can. */
export async function chooseTranslator(
  language: string,
  options: { ai: AiProvider | null; apertiumBinary?: string },
): Promise<Translator> {
  const code = apertiumCode(language);
  if (code && (await apertiumModes(options.apertiumBinary)).includes(`eng-${code}`)) {
    return apertiumTranslator(options.apertiumBinary);
  }
  if (options.ai?.configured('general')) return providerTranslator(options.ai);
  throw new NoTranslatorError(language);
}
