import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/server/db/migrate';
import { openPglite } from '../../src/server/db/pglite';
import { openPostgres } from '../../src/server/db/postgres';
import { startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    /** A migrated PostgreSQL database that `create database … template` copies. */
    postgresTemplate: string;
    /** A migrated PGlite data directory (a `dumpDataDir()` tarball) that PGlite loads. */
    pgliteTemplateFile: string;
  }
}

const postgresTemplate = 'lyceum_template';

/**
 * Migrates the schema once per run, on each database kind, so that every test server starts
 * from a copy instead of migrating its own database (decision 0006).
 */
export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-templates-'));
  const stop = async () => {
    await cluster.stop();
    fs.rmSync(tempDir, { recursive: true, force: true });
  };
  try {
    const templateUrl = await cluster.createDatabase(postgresTemplate);
    const onPostgres = await openPostgres(templateUrl, 1);
    try {
      await migrate(onPostgres);
    } finally {
      await onPostgres.close();
    }
    // No test connects to the template: `create database … template` refuses a source in use.
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query(
      `alter database ${postgresTemplate} with is_template true allow_connections false`,
    );
    await admin.end();

    const onPglite = await openPglite('memory://');
    const pgliteTemplateFile = path.join(tempDir, 'pglite-template.tar');
    try {
      await migrate(onPglite);
      const dump = await onPglite.dumpDataDir();
      fs.writeFileSync(pgliteTemplateFile, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await onPglite.close();
    }

    project.provide('postgresAdminUrl', cluster.adminUrl);
    project.provide('postgresTemplate', postgresTemplate);
    project.provide('pgliteTemplateFile', pgliteTemplateFile);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
