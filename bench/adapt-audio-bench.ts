/**
 * LE Adapt narration benchmark (issue 14, decision 0513): seconds of MP3 audio produced per
 * second of CPU, for the whole path (meSpeak speech, then lamejs encoding) and for each half,
 * over the project's test lesson narrated ROUNDS times. CPU time is the process's user + system
 * time, so other processes on the machine do not count against it.
 *
 *   node --import tsx bench/adapt-audio-bench.ts [rounds]
 */
import { makeAccessible } from '../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../src/server/adapt/adapt-test-lesson';
import { encodeMp3, speak, spokenSentences } from '../src/server/adapt/export/audio';

const ROUNDS = Number(process.argv[2] ?? 3);

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

const lesson = (
  await makeAccessible(
    adaptTestLesson(),
    { profile: 'none', targetGrade: 8, translateTo: null },
    { ai: null },
  )
).lesson;
const sentences = spokenSentences(lesson).map((s) => s.text);
speak('Warm up.');
encodeMp3(new Int16Array(22050), 22050);

let audioSeconds = 0;
let speechCpu = 0;
let encodeCpu = 0;
let mp3Bytes = 0;
for (let round = 0; round < ROUNDS; round++) {
  const parts: Int16Array[] = [];
  let start = process.cpuUsage();
  for (const text of sentences) parts.push(speak(text).samples);
  speechCpu += cpuSeconds(start);
  const total = parts.reduce((n, p) => n + p.length, 0);
  const samples = new Int16Array(total);
  let at = 0;
  for (const p of parts) {
    samples.set(p, at);
    at += p.length;
  }
  start = process.cpuUsage();
  mp3Bytes += encodeMp3(samples, 22050).length;
  encodeCpu += cpuSeconds(start);
  audioSeconds += total / 22050;
}

const fmt = (n: number) => n.toFixed(1);
console.log(`sentences per round: ${sentences.length}, rounds: ${ROUNDS}`);
console.log(
  `audio produced: ${fmt(audioSeconds)} s, MP3 ${(mp3Bytes / 1024).toFixed(0)} KiB (48 kbit/s mono)`,
);
console.log(`speech (meSpeak): ${fmt(audioSeconds / speechCpu)} s of audio per CPU second`);
console.log(`encoding (lamejs): ${fmt(audioSeconds / encodeCpu)} s of audio per CPU second`);
console.log(
  `MP3 end to end: ${fmt(audioSeconds / (speechCpu + encodeCpu))} s of audio per CPU second`,
);
