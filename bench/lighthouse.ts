/**
 * Lighthouse performance (mobile settings: emulated phone, simulated slow 4G and 4x CPU
 * slowdown, the package's defaults) for the home page and a documentation page, served by the
 * real server from the production build, in the system Chromium. Target (issue 18): 95 or more
 * in every run, and at most 120 KB gzip of JavaScript transferred until the network is idle
 * (not only before first render: lazily loaded chunks count too).
 *
 *   npm run build && node --import tsx bench/lighthouse.ts [runs] [path…]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { loadConfig } from '../src/server/config';
import { startServer } from '../src/server/start';
import { CHROMIUM_PATH, chromiumFlags, ensureChromium } from '../tests/support/browser';

const TARGET = 95;
const runs = Math.max(1, Number(process.argv[2] ?? 5) || 5);
const SCRIPT_BUDGET_KB = 120;
const paths = process.argv.slice(3).length > 0 ? process.argv.slice(3) : ['/', '/data-encryption'];

const metrics = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

/** The scripts the page fetched until the network was idle, largest first. */
function scriptsFetched(lhr: { audits: Record<string, { details?: unknown }> }): NetworkRequest[] {
  const details = lhr.audits['network-requests']?.details as
    { items?: NetworkRequest[] } | undefined;
  return (details?.items ?? [])
    .filter((item) => item.resourceType === 'Script')
    .sort((a, b) => (b.transferSize ?? 0) - (a.transferSize ?? 0));
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main() {
  ensureChromium();
  const base = loadConfig();
  if (!fs.existsSync(path.join(base.webDistDir, 'index.html'))) {
    throw new Error(`No build in ${base.webDistDir}: run \`npm run build\` first.`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-lighthouse-'));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATA_ROOM_PIN: 'lighthouse-bench',
      WEB_DIST_DIR: base.webDistDir,
    },
  );
  const server = await startServer(config);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: chromiumFlags,
  });
  let failed = false;
  try {
    console.log(`Lighthouse ${runs} run(s) per page, mobile settings, ${server.url}\n`);
    for (const pathname of paths) {
      const scores: number[] = [];
      const values = new Map<string, number[]>();
      let scripts: NetworkRequest[] = [];
      for (let run = 0; run < runs; run += 1) {
        const result = await lighthouse(server.url + pathname, {
          port: chrome.port,
          logLevel: 'error',
          output: 'json',
          onlyCategories: ['performance'],
        });
        if (!result) throw new Error(`Lighthouse returned no result for ${pathname}`);
        const { lhr } = result;
        if (lhr.runtimeError) throw new Error(`${pathname}: ${lhr.runtimeError.message}`);
        scores.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
        scripts = scriptsFetched(lhr);
        for (const [id] of metrics) {
          const value = lhr.audits[id]?.numericValue ?? Number.NaN;
          values.set(id, [...(values.get(id) ?? []), value]);
        }
      }
      const score = median(scores);
      const scriptBytes = scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
      if (Math.min(...scores) < TARGET || scriptBytes / 1024 > SCRIPT_BUDGET_KB) failed = true;
      const detail = metrics
        .map(([id, label]) => {
          const value = median(values.get(id) ?? [Number.NaN]);
          return id === 'cumulative-layout-shift'
            ? `${label} ${value.toFixed(3)}`
            : `${label} ${Math.round(value)} ms`;
        })
        .join(', ');
      console.log(
        `${pathname}: performance ${score} (runs: ${scores.join(', ')}; target ≥ ${TARGET} in every run) — ${detail}`,
      );
      console.log(
        `  JavaScript until the network is idle: ${kb(scriptBytes)} KB transferred in ${scripts.length} files (target ≤ ${SCRIPT_BUDGET_KB} KB)`,
      );
      for (const item of scripts.slice(0, 8)) {
        console.log(
          `    ${kb(item.transferSize ?? 0).padStart(6)} KB  ${new URL(item.url).pathname}`,
        );
      }
    }
  } finally {
    chrome.kill();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
