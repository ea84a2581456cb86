import fs from 'node:fs';
import path from 'node:path';

export function readVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}
