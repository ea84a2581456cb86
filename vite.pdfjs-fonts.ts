/**
 * pdf.js's font data, served from our own origin (decisions 0168, 0169):
 *
 * - `standard_fonts/`: a PDF that names one of the 14 standard fonts without embedding it is
 *   drawn with these files (Liberation Sans for Helvetica/Arial, Foxit's for Times, Courier,
 *   Symbol and Dingbats) instead of whatever the device happens to have, and Symbol/Dingbats
 *   are drawn at all.
 * - `cmaps/`: Adobe's character maps in pdf.js's packed form. A Chinese, Japanese or Korean
 *   PDF whose fonts use one of the predefined CMaps (UniGB-UCS2-H, UniJIS-UCS2-H, …) needs the
 *   map to know which characters its codes are; without it the page shows no text at all.
 *
 * pdf.js asks for each file by name under one base address, and only when a PDF needs it, so
 * they keep their names, in a folder named with pdf.js's version (under `/assets/`, cached for
 * a year: a new version is a new folder). The reader computes the same addresses from the
 * `version` pdf.js exports. The service worker precaches none of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const root = path.resolve('node_modules/pdfjs-dist');
const version = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
).version;

interface DataFolder {
  name: 'standard_fonts' | 'cmaps';
  files: RegExp;
  contentType: (file: string) => string;
}

const folders: DataFolder[] = [
  {
    name: 'standard_fonts',
    files: /\.(pfb|ttf)$/,
    contentType: (file) => (file.endsWith('.ttf') ? 'font/ttf' : 'application/x-font-type1'),
  },
  { name: 'cmaps', files: /\.bcmap$/, contentType: () => 'application/octet-stream' },
];

/** Where the build puts one of the folders, e.g. `/assets/pdfjs-5.6.205/cmaps/`. */
export const pdfjsDataPath = (folder: DataFolder['name']) => `/assets/pdfjs-${version}/${folder}/`;

function filesOf(folder: DataFolder): string[] {
  return fs.readdirSync(path.join(root, folder.name)).filter((name) => folder.files.test(name));
}

export function pdfjsFontData(): Plugin {
  return {
    name: 'lyceum-pdfjs-font-data',
    configureServer(server) {
      for (const folder of folders) {
        server.middlewares.use(pdfjsDataPath(folder.name), (req, res, next) => {
          const name = decodeURIComponent((req.url ?? '').split('?')[0]!.replace(/^\//, ''));
          if (!filesOf(folder).includes(name)) return next();
          res.setHeader('Content-Type', folder.contentType(name));
          fs.createReadStream(path.join(root, folder.name, name)).pipe(res);
        });
      }
    },
    generateBundle() {
      for (const folder of folders) {
        for (const name of filesOf(folder)) {
          this.emitFile({
            type: 'asset',
            fileName: `${pdfjsDataPath(folder.name).slice(1)}${name}`,
            source: fs.readFileSync(path.join(root, folder.name, name)),
          });
        }
      }
    },
  };
}
