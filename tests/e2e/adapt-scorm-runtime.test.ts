/**
 * An exported SCORM package run the way an LMS runs it: the manifest read for the SCO's
 * address, the SCO opened in a frame under scorm-again's runtime (SCORM 1.2 `API` and SCORM
 * 2004 `API_1484_11`) in Chromium, and the learner's quiz reaching the runtime as status and
 * score, with the reader's place kept in suspend data.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccessible } from '../../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../../src/server/adapt/adapt-test-lesson';
import type { AccessibleLesson } from '../../src/server/adapt/lesson';
import { scormPackage } from '../../src/server/adapt/export/scorm-package';
import { launchBrowser, seriousAxeViolations, viewports } from '../support/browser';

const runtimeDir = path.resolve('node_modules/scorm-again/dist');
let root: string;
let server: http.Server;
let baseUrl: string;
let browser: Browser;
let lesson: AccessibleLesson;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mp3': 'audio/mpeg',
  '.xml': 'application/xml',
};

/** The LMS page: scorm-again's runtime on the window, the SCO in a frame below it. */
function lmsPage(version: '1.2' | '2004', sco: string): string {
  const api =
    version === '1.2'
      ? 'window.API = new Scorm12API({ logLevel: 5 });'
      : 'window.API_1484_11 = new Scorm2004API({ logLevel: 5 });';
  const script = version === '1.2' ? 'scorm12.min.js' : 'scorm2004.min.js';
  return `<!doctype html><html lang="en"><head><title>LMS</title><script src="/runtime/${script}"></script><script>${api}</script></head><body><iframe title="Lesson" src="${sco}" style="width:100%;height:90vh"></iframe></body></html>`;
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-scorm-'));
  lesson = (
    await makeAccessible(
      adaptTestLesson(),
      { profile: 'adhd', targetGrade: 8, translateTo: null },
      { ai: null },
    )
  ).lesson;
  for (const version of ['1.2', '2004'] as const) {
    const zip = scormPackage(lesson, { version, identifier: `photosynthesis-${version}` });
    for (const [name, data] of Object.entries(unzipSync(zip))) {
      const file = path.join(root, version, name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, data);
    }
  }
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://lms');
    const lms = /^\/lms-(1\.2|2004)\.html$/.exec(url.pathname);
    if (lms) {
      const manifest = fs.readFileSync(path.join(root, lms[1]!, 'imsmanifest.xml'), 'utf8');
      const href = /<resource[^>]*adlcp:scorm[tT]ype="sco"[^>]*href="([^"]+)"/.exec(manifest)![1]!;
      res.writeHead(200, { 'content-type': TYPES['.html'] });
      res.end(lmsPage(lms[1] as '1.2' | '2004', `/package/${lms[1]}/${href}`));
      return;
    }
    const [, area, ...rest] = url.pathname.split('/');
    const base = area === 'runtime' ? runtimeDir : area === 'package' ? root : null;
    const file = base && path.join(base, ...rest.map(decodeURIComponent));
    if (!file || !file.startsWith(base + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

async function openSco(page: Page, version: '1.2' | '2004'): Promise<Frame> {
  await page.goto(`${baseUrl}/lms-${version}.html`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame!.waitForSelector('#quiz');
  // The SCO's script runs after its quiz is on the page: until it has started the attempt, its
  // buttons do nothing and the runtime still says "not attempted".
  const started = version === '1.2' ? 'cmi.core.lesson_status' : 'cmi.completion_status';
  await expect.poll(() => cmi(page, started)).toBe('incomplete');
  return frame!;
}

async function answer(frame: Frame, right: boolean) {
  await frame.getByLabel(right ? 'Oxygen' : 'Nitrogen').check();
  await frame
    .getByLabel(/The green pigment in chloroplasts is called/)
    .fill(right ? 'Chlorophyll' : 'carotene');
  await frame.getByRole('button', { name: 'Check my answers' }).click();
  await frame.getByText(/^You got \d of 2 right/).waitFor();
}

function cmi(page: Page, element: string) {
  return page.evaluate((e) => {
    const api = window as unknown as Record<
      string,
      { GetValue?: (k: string) => string; LMSGetValue?: (k: string) => string }
    >;
    const runtime = api.API_1484_11 ?? api.API!;
    return (runtime.GetValue ?? runtime.LMSGetValue)!.call(runtime, e);
  }, element);
}

describe('an exported SCORM package in scorm-again', () => {
  it('SCORM 1.2: the SCO starts the attempt, and a passing quiz reaches the runtime as passed with its score', async () => {
    const page = await browser.newPage();
    const frame = await openSco(page, '1.2');
    expect(await cmi(page, 'cmi.core.lesson_status')).toBe('incomplete');
    await answer(frame, true);
    expect(await cmi(page, 'cmi.core.score.raw')).toBe('100');
    expect(await cmi(page, 'cmi.core.score.max')).toBe('100');
    expect(await cmi(page, 'cmi.core.lesson_status')).toBe('passed');
    const suspend = JSON.parse(await cmi(page, 'cmi.suspend_data')) as {
      answers: Record<string, string>;
    };
    expect(suspend.answers['q-gas-released']).toBe('a');
    await page.close();
  });

  it('SCORM 1.2: a failing quiz is reported as failed with its score', async () => {
    const page = await browser.newPage();
    const frame = await openSco(page, '1.2');
    await answer(frame, false);
    expect(await cmi(page, 'cmi.core.score.raw')).toBe('0');
    expect(await cmi(page, 'cmi.core.lesson_status')).toBe('failed');
    await page.close();
  });

  it('SCORM 2004: completion, success and the scaled score reach the runtime; the screen kept in suspend data', async () => {
    const page = await browser.newPage();
    const frame = await openSco(page, '2004');
    expect(await cmi(page, 'cmi.completion_status')).toBe('incomplete');
    await frame.getByRole('button', { name: 'Next screen' }).first().click();
    await answer(frame, true);
    expect(await cmi(page, 'cmi.score.scaled')).toBe('1');
    expect(await cmi(page, 'cmi.success_status')).toBe('passed');
    expect(await cmi(page, 'cmi.completion_status')).toBe('completed');
    const suspend = JSON.parse(await cmi(page, 'cmi.suspend_data')) as {
      screens: Record<string, number>;
    };
    expect(suspend.screens['section-1']).toBe(1);
    await page.close();
  });

  it('the SCO page has no serious accessibility violations at 390 and 1280 px', async () => {
    for (const viewport of [viewports.mobile, viewports.desktop]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/package/1.2/index.html`);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
