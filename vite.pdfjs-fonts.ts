/**
 * pdf.js's standard-font data (decision 0168), served from our own origin: a PDF that names
 * one of the 14 standard fonts without embedding it is drawn with these files (Liberation
 * Sans for Helvetica/Arial, Foxit's for Times, Courier, Symbol and Dingbats) instead of
 * whatever the device happens to have, and Symbol/Dingbats are drawn at all. pdf.js asks
 * for them by file name under one base address, so they keep their names, in a folder named
 * with pdf.js's version (under `/assets/`, cached for a year: a new version is a new folder).
 * The reader computes the same address from the `version` pdf.js exports.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const source = path.resolve('node_modules/pdfjs-dist/standard_fonts');
const version = (
  JSON.parse(fs.readFileSync(path.resolve('node_modules/pdfjs-dist/package.json'), 'utf8')) as {
    version: string;
  }
).version;
export const standardFontsPath = `/assets/pdfjs-${version}/standard_fonts/`;

function fontFiles(): string[] {
  return fs.readdirSync(source).filter((name) => /\.(pfb|ttf)$/.test(name));
}

export function pdfjsStandardFonts(): Plugin {
  return {
    name: 'lyceum-pdfjs-standard-fonts',
    configureServer(server) {
      server.middlewares.use(standardFontsPath, (req, res, next) => {
        const name = decodeURIComponent((req.url ?? '').split('?')[0]!.replace(/^\//, ''));
        if (!fontFiles().includes(name)) return next();
        res.setHeader(
          'Content-Type',
          name.endsWith('.ttf') ? 'font/ttf' : 'application/x-font-type1',
        );
        fs.createReadStream(path.join(source, name)).pipe(res);
      });
    },
    generateBundle() {
      for (const name of fontFiles()) {
        this.emitFile({
          type: 'asset',
          fileName: `${standardFontsPath.slice(1)}${name}`,
          source: fs.readFileSync(path.join(source, name)),
        });
      }
    },
  };
}
