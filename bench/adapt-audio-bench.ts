/**
 * LE Adapt narration benchmark (issue 14, decisions 0513 and 0519): Flite's "slt" voice (the
 * product's voice when Debian's flite is installed) against meSpeak (its fallback), over the
 * project's test lesson's spoken sentences narrated ROUNDS times, each voice the way
 * `lessonAudio` runs it (one Flite process per sentence):
 *
 * - audio generation time per 1,000 words, wall clock and CPU, for speech alone and for speech
 *   plus lamejs encoding;
 * - seconds of MP3 audio produced per CPU second (the figure).
 *
 * CPU time is this process's user + system time plus its waited-for children's (Flite), from
 * /proc/self/stat, so other processes on the machine do not count against it; wall time does
 * feel the machine's load, so report `uptime` beside it.
 *
 *   node --import tsx bench/adapt-audio-bench.ts [rounds]
 */
import fs from 'node:fs';
import { makeAccessible } from '../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../src/server/adapt/adapt-test-lesson';
import {
  encodeMp3,
  speak,
  spokenSentences,
  type NarrationSettings,
} from '../src/server/adapt/export/audio';

const ROUNDS = Number(process.argv[2] ?? 3);
const TICKS = 100;

/** This process's CPU seconds and its waited-for children's (fields 14–17 of /proc/self/stat). */
function cpuSeconds(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const children = (Number(fields[13]) + Number(fields[14])) / TICKS;
  const own = process.cpuUsage();
  return (own.user + own.system) / 1e6 + children;
}

const lesson = (
  await makeAccessible(
    adaptTestLesson(),
    { profile: 'none', targetGrade: 8, translateTo: null },
    { ai: null },
  )
).lesson;
const sentences = spokenSentences(lesson).map((s) => s.text);
const words = sentences.join(' ').split(/\s+/).filter(Boolean).length;
console.log(`sentences per round: ${sentences.length}, words: ${words}, rounds: ${ROUNDS}`);

const voices: Array<{ name: string; settings: NarrationSettings }> = [
  { name: 'Flite slt', settings: { voice: 'flite' } },
  { name: 'meSpeak en/en-us', settings: { voice: 'mespeak' } },
];

for (const { name, settings } of voices) {
  const warm = await speak('Warm up.', 160, settings);
  if (warm.voice !== name) throw new Error(`${name} is not available here (got ${warm.voice}).`);
  let speechWall = 0;
  let speechCpu = 0;
  let encodeWall = 0;
  let encodeCpu = 0;
  let audioSeconds = 0;
  let mp3Bytes = 0;
  let sampleRate = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const parts: Int16Array[] = [];
    let wall = performance.now();
    let cpu = cpuSeconds();
    for (const text of sentences) {
      const pcm = await speak(text, 160, settings);
      sampleRate = pcm.sampleRate;
      parts.push(pcm.samples);
    }
    speechWall += (performance.now() - wall) / 1000;
    speechCpu += cpuSeconds() - cpu;
    const samples = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      samples.set(p, at);
      at += p.length;
    }
    wall = performance.now();
    cpu = cpuSeconds();
    mp3Bytes += encodeMp3(samples, sampleRate).length;
    encodeWall += (performance.now() - wall) / 1000;
    encodeCpu += cpuSeconds() - cpu;
    audioSeconds += samples.length / sampleRate;
  }
  const perThousand = (seconds: number) => ((seconds / (words * ROUNDS)) * 1000).toFixed(2);
  console.log(
    [
      `${name} (${sampleRate} Hz): ${audioSeconds.toFixed(1)} s of audio, MP3 ${(mp3Bytes / 1024).toFixed(0)} KiB at 48 kbit/s`,
      `  speech per 1,000 words: ${perThousand(speechWall)} s wall, ${perThousand(speechCpu)} s CPU`,
      `  speech + MP3 encoding per 1,000 words: ${perThousand(speechWall + encodeWall)} s wall, ${perThousand(speechCpu + encodeCpu)} s CPU`,
      `  MP3 end to end: ${(audioSeconds / (speechCpu + encodeCpu)).toFixed(1)} s of audio per CPU second (speech alone ${(audioSeconds / speechCpu).toFixed(1)})`,
    ].join('\n'),
  );
}
