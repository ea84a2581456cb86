import fs from 'node:fs';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/** One PostgreSQL cluster for the whole integration run; each test file makes its own database. */
export default async function setup(project: TestProject) {
  const cluster = await startPostgresCluster();
  // Roles are cluster-wide: create them once here so test files migrating their own databases
  // in parallel find them in place (the migration also tolerates the race on its own).
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('create schema if not exists platform');
  await admin.query(fs.readFileSync('db/platform/0001_roles.sql', 'utf8'));
  await admin.end();
  project.provide('postgresAdminUrl', cluster.adminUrl);
  return () => cluster.stop();
}
