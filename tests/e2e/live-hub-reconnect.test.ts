/**
 * The live room after a real network drop, on both databases: the learner's browser reaches the
 * server through a TCP proxy whose connections are reset and refused for a while (no polite
 * WebSocket close). Chat sent meanwhile cannot reach the learner; once the network is back,
 * realtime-js reconnects and rejoins, and the room reads the chat again from the table
 * (decision 0310), so the missed messages show without a reload.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRow } from '../integration/learning-fixture';
import { password, startAppBrowser, type AppBrowser } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { testClient } from '../support/test-server';

describe.each(['pglite', 'postgres'] as const)(
  'the live room after a network drop (%s)',
  (kind) => {
    let cluster: PostgresCluster | undefined;
    let app: AppBrowser;
    let proxy: TcpProxy;
    let course: string;
    let learnerEmail: string;
    /** The instructor, posting through the API while the learner is cut off. */
    let instructor: SupabaseClient;

    beforeAll(async () => {
      let env: Record<string, string> = {};
      if (kind === 'postgres') {
        cluster = await startPostgresCluster();
        env = { DATABASE_URL: await cluster.createDatabase('live_reconnect') };
      }
      app = await startAppBrowser(`live-hub-reconnect-${kind}`, { env });
      const owner = await app.createUser('drop-owner', 'Olu Owner');
      const teacher = await app.createUser('drop-instructor', 'Ines Instructor');
      const learner = await app.createUser('drop-learner', 'Leo Learner');
      learnerEmail = learner.email;
      const org = await insertRow<{ id: string }>(app.service, 'organizations', {
        name: 'Dropped Connection University',
        slug: `drop-${Date.now().toString(36)}`,
        owner_id: owner.id,
      });
      for (const [user, role] of [
        [teacher.id, 'instructor'],
        [learner.id, 'learner'],
      ] as const)
        await insertRow(app.service, 'memberships', {
          user_id: user,
          organization_id: org.id,
          role,
        });
      course = (
        await insertRow<{ id: string }>(app.service, 'courses', {
          organization_id: org.id,
          title: 'The respiratory system',
          slug: 'lungs',
          published: true,
          visibility: 'organization',
        })
      ).id;
      await insertRow(app.service, 'course_instructors', {
        course_id: course,
        user_id: teacher.id,
      });
      await insertRow(app.service, 'enrollments', { user_id: learner.id, course_id: course });
      instructor = testClient(app.server, app.server.deps.keys.anonKey);
      const signedIn = await instructor.auth.signInWithPassword({ email: teacher.email, password });
      if (signedIn.error) throw signedIn.error;
      proxy = await startTcpProxy({ host: '127.0.0.1', port: app.server.port });
    }, 180_000);

    afterAll(async () => {
      await proxy?.close();
      await app?.close();
      await cluster?.stop();
    });

    async function say(body: string) {
      const { error } = await instructor.from('live_messages').insert({ course_id: course, body });
      if (error) throw new Error(`posting "${body}": ${error.message}`);
    }

    /** The learner's room, loaded and used through the proxy only. */
    async function learnerThroughProxy(): Promise<Page> {
      const room = `/app/courses/${course}/live`;
      const page = await app.newPage('desktop');
      await page.goto(`${proxy.url}/login?next=${encodeURIComponent(room)}`, {
        waitUntil: 'networkidle',
      });
      await app.signIn(page, learnerEmail);
      await page.waitForURL(`${proxy.url}${room}`);
      await page.getByText('Connected: who is here').waitFor();
      return page;
    }

    it('shows the chat sent while the network was down once it is back', async () => {
      const page = await learnerThroughProxy();
      try {
        const chat = page.getByRole('list', { name: 'Chat messages' });
        await say('Before the drop: today is about the alveoli.');
        await chat.getByText('Before the drop: today is about the alveoli.').waitFor();

        await proxy.cut();
        await page.getByText('The connection dropped. Reconnecting…').waitFor();
        expect(await seriousAxeViolations(page), 'while reconnecting').toEqual([]);
        await say('While you were away: surfactant lowers surface tension.');
        await say('While you were away: gas crosses by diffusion.');
        expect(await chat.getByText('While you were away').count()).toBe(0);

        await proxy.restore();
        await chat.getByText('While you were away: surfactant lowers surface tension.').waitFor();
        await chat.getByText('While you were away: gas crosses by diffusion.').waitFor();
        await page.getByText('Connected: who is here').waitFor();
        // Live again: the next message arrives as it is sent.
        await say('After the drop: questions?');
        await chat.getByText('After the drop: questions?').waitFor();
      } finally {
        await page.context().close();
      }
    });
  },
);
