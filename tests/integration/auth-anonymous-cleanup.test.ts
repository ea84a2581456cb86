/**
 * Idle anonymous accounts are deleted with their data (decision 0059): the daily job's
 * function, run directly, deletes an anonymous account unused for AUTH_ANONYMOUS_USERS_INACTIVE_DAYS
 * (its profile, role, sessions and avatar file go, an audit entry says so), while an anonymous
 * account used recently, an idle permanent account and an idle anonymous account under a legal
 * hold stay. The job is on the queue's schedule.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteInactiveAnonymousUsers } from '../../src/server/compliance/anonymous-cleanup';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser } from './auth-support';

/** A 1×1 PNG, the avatars bucket's kind of file. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=',
  'base64',
);

describe.each(databaseKinds)('anonymous account cleanup on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      AUTH_ANONYMOUS_USERS: 'true',
      AUTH_ANONYMOUS_USERS_INACTIVE_DAYS: '30',
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      AUTH_RATE_LIMIT_ANONYMOUS: '1000',
    });
  });
  afterAll(() => server?.stop());

  async function anonymous(): Promise<{ client: SupabaseClient; id: string }> {
    const client = browserLikeClient(server);
    const { data, error } = await client.auth.signInAnonymously();
    expect(error).toBeNull();
    return { client, id: data.user!.id };
  }

  /** As if the account and its sessions were last used `days` ago. */
  async function idleFor(id: string, days: number, sessionsToo = true) {
    await server.deps.db.query(
      `update auth.users set created_at = now() - make_interval(days => $2),
         updated_at = now() - make_interval(days => $2),
         last_sign_in_at = now() - make_interval(days => $2) where id = $1`,
      [id, days],
    );
    if (sessionsToo) {
      await server.deps.db.query(
        `update auth.sessions set created_at = now() - make_interval(days => $2),
           refreshed_at = now() - make_interval(days => $2) where user_id = $1`,
        [id, days],
      );
    }
  }

  async function count(sql: string, id: string): Promise<number> {
    const { rows } = await server.deps.db.query<{ n: number }>(sql, [id]);
    return rows[0]!.n;
  }

  it('deletes idle anonymous accounts with their data, and keeps the others', async () => {
    const idle = await anonymous();
    const upload = await idle.client.storage
      .from('avatars')
      .upload(`${idle.id}/avatar.png`, png, { contentType: 'image/png' });
    expect(upload.error).toBeNull();
    await idleFor(idle.id, 31);

    // Made 40 days ago, but its session was refreshed today: in use.
    const active = await anonymous();
    await idleFor(active.id, 40, false);
    // Inside the period.
    const recent = await anonymous();
    await idleFor(recent.id, 29);
    const held = await anonymous();
    await idleFor(held.id, 90);
    await server.deps.db.query(
      `insert into privacy.legal_holds (user_id, reason) values ($1, 'litigation pending')`,
      [held.id],
    );
    const permanent = await confirmedUser(server);
    const permanentId = (await permanent.client.auth.getUser()).data.user!.id;
    await idleFor(permanentId, 400);

    const done = await deleteInactiveAnonymousUsers(
      { db: server.deps.db, storage: server.deps.storage },
      { inactiveDays: 30 },
    );
    expect(done).toEqual({ deleted: 1, files: 1, failed: [] });

    expect(await count('select count(*)::int as n from auth.users where id = $1', idle.id)).toBe(0);
    expect(
      await count('select count(*)::int as n from public.profiles where id = $1', idle.id),
    ).toBe(0);
    expect(
      await count('select count(*)::int as n from public.user_roles where user_id = $1', idle.id),
    ).toBe(0);
    expect(
      await count('select count(*)::int as n from auth.sessions where user_id = $1', idle.id),
    ).toBe(0);
    expect(
      await count(
        `select count(*)::int as n from storage.objects where bucket_id = 'avatars' and name like $1 || '/%'`,
        idle.id,
      ),
    ).toBe(0);
    expect(
      await count(
        `select count(*)::int as n from public.audit_log
          where action = 'privacy.anonymous_user_cleanup' and record_id = $1`,
        idle.id,
      ),
    ).toBe(1);
    // The deleted account's session no longer works.
    const gone = await idle.client.auth.getUser();
    expect(gone.error).not.toBeNull();

    for (const id of [active.id, recent.id, held.id, permanentId]) {
      expect(await count('select count(*)::int as n from auth.users where id = $1', id)).toBe(1);
      expect(await count('select count(*)::int as n from public.profiles where id = $1', id)).toBe(
        1,
      );
    }
    expect((await active.client.auth.getUser()).data.user?.is_anonymous).toBe(true);
    // The idle permanent account still signs in (its 400-day-old session has ended by itself).
    const again = browserLikeClient(server);
    expect(
      (
        await again.auth.signInWithPassword({
          email: permanent.email,
          password: permanent.password,
        })
      ).error,
    ).toBeNull();

    // Nothing left to delete: a second run changes nothing.
    expect(
      await deleteInactiveAnonymousUsers(
        { db: server.deps.db, storage: server.deps.storage },
        { inactiveDays: 30 },
      ),
    ).toEqual({ deleted: 0, files: 0, failed: [] });
  });

  it('is scheduled daily on the job queue', async () => {
    const { rows } = await server.deps.db.query<{ cron: string }>(
      "select cron from pgboss.schedule where name = 'anonymous-users-cleanup'",
    );
    expect(rows).toEqual([{ cron: '25 3 * * *' }]);
  });
});
