import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './types';

export interface Migration {
  /** e.g. "platform/0001_roles.sql" */
  id: string;
  sql: string;
  checksum: string;
}

export const migrationSets = ['platform', 'app'] as const;

/** Reads db/platform then db/app, each in file-name order. */
export function readMigrations(root = path.resolve('db')): Migration[] {
  return migrationSets.flatMap((set) => {
    const dir = path.join(root, set);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((file) => file.endsWith('.sql'))
      .sort()
      .map((file) => {
        const sql = fs.readFileSync(path.join(dir, file), 'utf8');
        return { id: `${set}/${file}`, sql, checksum: sha256(sql) };
      });
  });
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class MigrationChecksumError extends Error {
  constructor(public readonly migrationId: string) {
    super(
      `Migration ${migrationId} was changed after it was applied to this database. ` +
        `Applied migrations are immutable: restore the file and put the change in a new migration.`,
    );
    this.name = 'MigrationChecksumError';
  }
}

/** Applies pending migrations in order, each in its own transaction; returns the applied ids. */
export async function migrate(db: Database, migrations = readMigrations()): Promise<string[]> {
  await db.exec(`
    create schema if not exists platform;
    create table if not exists platform.schema_migrations (
      id text primary key,
      checksum text not null,
      applied_at timestamptz not null default now()
    );
  `);
  return db.transaction(async (tx) => {
    // Several gateway processes may start at once against one PostgreSQL server.
    if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock(7426001)');
    const { rows } = await tx.query<{ id: string; checksum: string }>(
      'select id, checksum from platform.schema_migrations',
    );
    const applied = new Map(rows.map((row) => [row.id, row.checksum]));
    const done: string[] = [];
    for (const migration of migrations) {
      const previous = applied.get(migration.id);
      if (previous !== undefined) {
        if (previous !== migration.checksum) throw new MigrationChecksumError(migration.id);
        continue;
      }
      try {
        await tx.exec(migration.sql);
      } catch (error) {
        throw new Error(`Migration ${migration.id} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      await tx.query('insert into platform.schema_migrations (id, checksum) values ($1, $2)', [
        migration.id,
        migration.checksum,
      ]);
      done.push(migration.id);
    }
    if (done.length > 0) await tx.query(`select pg_notify('pgrst', 'reload schema')`);
    return done;
  });
}
