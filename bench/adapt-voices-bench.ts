/**
 * LE Adapt narration voices compared (issue 14, decision 0518): meSpeak (the product's voice,
 * decision 0513) against the offline voices installable here — Debian's espeak-ng, Flite's
 * "slt" (CMU clustergen) and Festival with the "cmu_us_slt_arctic_hts" HMM voice; no npm
 * package ships a neural (ONNX) voice model, so none can run offline (the decision lists the
 * packages checked). For each voice, over the project's test lesson's spoken sentences:
 *
 * - intelligibility: every sentence is transcribed by an offline recogniser (PocketSphinx,
 *   Debian's pocketsphinx with its US English model) and the word error rate against the
 *   sentence is counted — a machine listener's proxy for how clearly the voice speaks;
 * - speed: seconds of audio per CPU second (this process's CPU for meSpeak, the children's
 *   CPU from /proc/self/stat for the Debian engines, so other load on the machine does not
 *   count);
 * - sample rate, and the size installed (read from dpkg and node_modules).
 *
 *   apt-get install -y espeak-ng flite festival festvox-us-slt-hts pocketsphinx pocketsphinx-en-us
 *   node --import tsx bench/adapt-voices-bench.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeAccessible } from '../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../src/server/adapt/adapt-test-lesson';
import { speak, spokenSentences, wavSamples } from '../src/server/adapt/export/audio';

interface Pcm {
  samples: Int16Array;
  sampleRate: number;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'adapt-voices-'));
const TICKS = 100;

/** CPU seconds of this process's waited-for children (fields 16 and 17 of /proc/self/stat). */
function childCpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

function ownCpuSeconds(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
}

function readWav(file: string): Pcm {
  return wavSamples(new Uint8Array(fs.readFileSync(file)));
}

function run(command: string, args: string[], input?: string) {
  const result = spawnSync(command, args, { input, stdio: ['pipe', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr?.toString()}`);
}

interface Voice {
  name: string;
  cpu: () => number;
  say: (text: string) => Pcm | Promise<Pcm>;
  size: () => string;
}

function dpkgSize(packages: string[]): string {
  const sizes = execFileSync('dpkg-query', ['-W', '-f', '${Installed-Size}\\n', ...packages], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .map(Number);
  return `${(sizes.reduce((n, s) => n + s, 0) / 1024).toFixed(1)} MB (${packages.join(', ')})`;
}

function duSize(folder: string): string {
  const kb = Number(execFileSync('du', ['-sk', folder], { encoding: 'utf8' }).split('\t')[0]);
  return `${(kb / 1024).toFixed(1)} MB (${path.basename(folder)})`;
}

const wav = path.join(dir, 'voice.wav');
const voices: Voice[] = [
  {
    name: 'meSpeak 2.0.2 en-us (formant, JS)',
    cpu: ownCpuSeconds,
    say: (text) => speak(text, 160, { voice: 'mespeak' }),
    size: () => duSize(path.resolve('node_modules/mespeak')),
  },
  {
    name: 'espeak-ng 1.51 en-us (formant, Debian)',
    cpu: childCpuSeconds,
    say: (text) => {
      run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', wav, text]);
      return readWav(wav);
    },
    size: () => dpkgSize(['espeak-ng', 'espeak-ng-data', 'libespeak-ng1']),
  },
  {
    name: 'Flite 2.2 slt (clustergen, Debian)',
    cpu: childCpuSeconds,
    say: (text) => {
      run('flite', ['-voice', 'slt', '-t', text, '-o', wav]);
      return readWav(wav);
    },
    size: () => dpkgSize(['flite', 'libflite1']),
  },
  {
    name: 'Festival 2.5 cmu_us_slt_arctic_hts (HMM, Debian)',
    cpu: childCpuSeconds,
    say: (text) => {
      run('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', '-o', wav], text);
      return readWav(wav);
    },
    size: () => dpkgSize(['festival', 'festvox-us-slt-hts', 'libestools2.5']),
  },
];

function writeWav(file: string, pcm: Pcm) {
  const { samples, sampleRate } = pcm;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length * 2, 40);
  fs.writeFileSync(file, Buffer.concat([header, Buffer.from(samples.buffer)]));
}

/** What the recogniser hears, at the voice's own sample rate (its filter bank adapts). */
function transcribe(pcm: Pcm): string {
  const file = path.join(dir, 'heard.wav');
  writeWav(file, pcm);
  const nfft = pcm.sampleRate > 16000 ? '1024' : '512';
  return execFileSync(
    'pocketsphinx_continuous',
    ['-infile', file, '-samprate', String(pcm.sampleRate), '-nfft', nfft, '-logfn', '/dev/null'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  ).trim();
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/(\d),(\d)/g, '$1$2')
    .split(/[^a-z0-9']+/)
    .filter(Boolean);

/** Word-level edit distance. */
function errors(said: string[], heard: string[]): number {
  let previous = Array.from({ length: heard.length + 1 }, (_, j) => j);
  for (let i = 1; i <= said.length; i++) {
    const row = [i];
    for (let j = 1; j <= heard.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (said[i - 1] === heard[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[heard.length]!;
}

const lesson = (
  await makeAccessible(
    adaptTestLesson(),
    { profile: 'none', targetGrade: 8, translateTo: null },
    { ai: null },
  )
).lesson;
// Numbers are read differently by each engine's front end ("1779"); the recogniser's language
// model writes none, so sentences with digits are left out of the error count.
const sentences = [
  ...spokenSentences(lesson).map((s) => s.text),
  ...lesson.objectives.map((o) => o.text),
  ...lesson.glossary.map((g) => g.definition),
  ...lesson.quiz.map((q) => (q.kind === 'cloze' ? q.text.replace('____', 'blank') : q.prompt)),
];

console.log(`${sentences.length} sentences, ${sentences.join(' ').split(/\s+/).length} words`);
for (const voice of voices) {
  await voice.say('Warm up.');
  let audio = 0;
  let cpu = 0;
  let wordCount = 0;
  let wrong = 0;
  let rate = 0;
  for (const text of sentences) {
    const before = voice.cpu();
    const pcm = await voice.say(text);
    cpu += voice.cpu() - before;
    rate = pcm.sampleRate;
    audio += pcm.samples.length / pcm.sampleRate;
    if (/\d/.test(text)) continue;
    const said = words(text);
    wordCount += said.length;
    wrong += errors(said, words(transcribe(pcm)));
  }
  console.log(
    [
      voice.name,
      `  word error rate (PocketSphinx): ${((100 * wrong) / wordCount).toFixed(1)} % of ${wordCount} words`,
      `  speed: ${(audio / cpu).toFixed(1)} s of audio per CPU second (${audio.toFixed(1)} s of audio)`,
      `  sample rate: ${rate} Hz`,
      `  installed: ${voice.size()}`,
    ].join('\n'),
  );
}
fs.rmSync(dir, { recursive: true, force: true });
