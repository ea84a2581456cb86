/**
 * Renders the installed app's PNG icons from the favicon's drawing (run once after changing
 * the mark: `node --import tsx scripts/app-icons.ts`; the PNGs are committed). Installers want
 * raster icons at 192 and 512 px and a "maskable" variant whose mark sits inside the central
 * safe zone, since launchers crop it to their own shape.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, chromiumFlags } from '../tests/support/browser';

const outDir = path.resolve('src/web/public');
const mark = fs.readFileSync(path.resolve('src/web/public/favicon.svg'), 'utf8');
const glyph = mark
  .replace(/^<svg[^>]*>/, '')
  .replace(/<\/svg>$/, '')
  .replace(/<rect width="40" height="40"[^>]*\/>/, '');

/** The favicon as drawn (rounded tile), or full-bleed with the glyph in the middle 60 %. */
function svg(maskable: boolean): string {
  if (!maskable) return mark;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#1d3461"/><g transform="translate(20 20) scale(0.62) translate(-20 -20)">${glyph}</g></svg>`;
}

const icons = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
];

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumFlags });
try {
  fs.mkdirSync(outDir, { recursive: true });
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const html = `<style>html,body{margin:0;background:transparent}svg{display:block;width:${icon.size}px;height:${icon.size}px}</style>${svg(icon.maskable)}`;
    await page.setContent(html);
    await page.screenshot({ path: path.join(outDir, icon.file), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
