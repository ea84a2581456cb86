/**
 * Runs after the prerender: writes a gzip copy (`<file>.gz`, level 9) beside each compressible
 * hashed asset of the web build, so the server sends those bytes instead of compressing the
 * same file again on every request (decision 0037). Files smaller than the server's own
 * threshold, or that gzip does not shrink, get no copy and are sent as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/server/config';

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|map)$/;
const MIN_BYTES = 1024;

function precompressAssets(assetsDir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(assetsDir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const source = fs.readFileSync(file);
    if (source.length < MIN_BYTES) continue;
    const gzipped = gzipSync(source, { level: 9 });
    if (gzipped.length >= source.length) continue;
    fs.writeFileSync(`${file}.gz`, gzipped);
    files += 1;
    bytes += gzipped.length;
  }
  return { files, bytes };
}

const started = performance.now();
const assetsDir = path.join(loadConfig().webDistDir, 'assets');
const { files, bytes } = precompressAssets(assetsDir);
console.log(
  `precompressed ${files} assets (${(bytes / 1024).toFixed(0)} KB gzip) in ${((performance.now() - started) / 1000).toFixed(1)}s`,
);
