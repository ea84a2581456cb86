/**
 * For the fact tests only (never imported by the app): every word of the SQL in db/, so a
 * documentation page that names a table or procedure can be checked against the migrations.
 */
import fs from 'node:fs';
import path from 'node:path';

export function sqlWords(root = 'db'): Set<string> {
  const files = fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.sql'));
  const text = files.map((file) => fs.readFileSync(path.join(root, file), 'utf8')).join('\n');
  return new Set(text.toLowerCase().match(/[a-z_][a-z0-9_]*/g));
}
