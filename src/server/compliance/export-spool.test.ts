import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ABANDONED_SPOOL_MS, createExportSpool, removeAbandonedExportSpools } from './export-spool';

describe('export spools', () => {
  let parent: string;
  beforeEach(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'spool-test-'));
  });
  afterEach(() => rm(parent, { recursive: true, force: true }));

  it('removes a folder an export left a day ago and keeps a fresh one and other folders', async () => {
    const abandoned = await createExportSpool(parent);
    await writeFile(path.join(abandoned, '0.deflate'), 'personal data');
    const old = new Date(Date.now() - ABANDONED_SPOOL_MS - 60_000);
    await utimes(abandoned, old, old);
    const running = await createExportSpool(parent);
    const unrelated = path.join(parent, 'lyceum-web-build');
    await mkdir(unrelated);
    await utimes(unrelated, old, old);

    expect(await removeAbandonedExportSpools(parent)).toBe(1);
    expect((await readdir(parent)).sort()).toEqual(
      [path.basename(running), 'lyceum-web-build'].sort(),
    );
  });
});
