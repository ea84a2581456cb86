/**
 * LE Adapt's outputs (issue 14, decisions 0512–0515) through the server on PGlite and
 * PostgreSQL: an approved job's exports rendered, stored and downloaded by signed link; the
 * lesson published as a lesson and bank questions into a course its publisher may edit; and
 * webhook deliveries to a loopback receiver the configuration allow-lists, signed with
 * HMAC-SHA256, retried after a failure, logged per attempt, with private, loopback and
 * link-local targets refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeAccessible } from '../../src/server/adapt/accessible/accessible-stage';
import { adaptTestLesson } from '../../src/server/adapt/adapt-test-lesson';
import type { LessonApprovedPayload } from '../../src/common/adapt-outputs';
import type { ReviewedLesson } from '../../src/server/adapt/lesson';
import { EXPORT_JOB, runExportJob, runWebhookDelivery } from '../../src/server/adapt/outputs';
import { verifyWebhook } from '../../src/server/adapt/webhooks/signature';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { buildLearningFixture, type Actor, type LearningFixture } from './learning-fixture';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe.each(databaseKinds)('LE Adapt outputs on %s', (kind) => {
  let server: TestServer;
  let fx: LearningFixture;
  let receiver: http.Server;
  let receiverUrl: string;
  const received: Received[] = [];
  /** Status codes the receiver answers with, in turn; 200 once they run out. */
  const answers: number[] = [];
  let approvedJob: string;
  let draftJob: string;
  let reviewed: ReviewedLesson;

  /** A finished job of the instructor's in organization A, waiting for a Reviewer. */
  async function finishedJob(): Promise<string> {
    const { rows } = await server.deps.db.query<{ id: string }>(
      `insert into public.adapt_jobs (owner_id, organization_id, title, source_format, source_name, status)
       values ($1, $2, 'Photosynthesis', 'txt', 'photosynthesis.txt', 'done') returning id`,
      [fx.users.instructor.id, fx.orgA],
    );
    await server.deps.db.query(
      `insert into public.adapt_job_stages (job_id, stage, name, status, output)
       values ($1, 4, 'review', 'done', $2::jsonb)`,
      [rows[0]!.id, JSON.stringify(reviewed)],
    );
    return rows[0]!.id;
  }

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/lms/hooks`;
    server = await startTestServer(kind, { ADAPT_WEBHOOK_ALLOWED_TARGETS: '127.0.0.1' });
    fx = await buildLearningFixture(server);
    const { lesson } = await makeAccessible(
      adaptTestLesson(),
      { profile: 'adhd', targetGrade: 8, translateTo: null },
      { ai: null },
    );
    reviewed = { lesson, findings: [], fidelity: { passed: true, facts: [], lost: [] } };
    const job = async (approved: boolean) => {
      const { rows } = await server.deps.db.query<{ id: string }>(
        `insert into public.adapt_jobs (owner_id, organization_id, title, source_format, source_name,
                                        status, approved_by, approved_at)
         values ($1, $2, 'Photosynthesis', 'txt', 'photosynthesis.txt', 'done',
                 case when $3 then $4::uuid end, case when $3 then now() end)
         returning id`,
        [fx.users.instructor.id, fx.orgA, approved, fx.users.org_admin.id],
      );
      await server.deps.db.query(
        `insert into public.adapt_job_stages (job_id, stage, name, status, output)
         values ($1, 4, 'review', 'done', $2::jsonb)`,
        [rows[0]!.id, JSON.stringify(reviewed)],
      );
      return rows[0]!.id;
    };
    approvedJob = await job(true);
    draftJob = await job(false);
    // The reviewer edited one section before approving.
    await server.deps.db.query(
      `insert into public.adapt_section_reviews (job_id, section_id, state, heading, body)
       values ($1, 'chloroplasts', 'edited', 'Inside the chloroplast', 'Chlorophyll in the chloroplast absorbs light.')`,
      [approvedJob],
    );
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  async function call(actor: Actor, route: string, method = 'POST', body: unknown = {}) {
    const response = await fetch(`${server.url}/functions/v1/adapt-outputs/${route}`, {
      method,
      headers: {
        apikey: server.anonKey,
        Authorization: `Bearer ${actor === 'anon' ? server.anonKey : fx.users[actor].token}`,
        'Content-Type': 'application/json',
      },
      body: method === 'GET' ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  describe('exports', () => {
    it('refuses a job no Reviewer approved, and strangers', async () => {
      expect(await call('instructor', `jobs/${draftJob}/exports`)).toMatchObject({
        status: 409,
        body: { code: 'not_ready' },
      });
      expect((await call('other_admin', `jobs/${approvedJob}/exports`)).status).toBe(404);
      expect((await call('anon', `jobs/${approvedJob}/exports`)).status).toBe(401);
      expect((await call('instructor', 'jobs/not-a-uuid/exports')).status).toBe(400);
    });

    it('renders and stores every format, downloadable by signed link with the review applied', async () => {
      const requested = await call('instructor', `jobs/${approvedJob}/exports`);
      expect(requested.status).toBe(202);
      // The queue may be running the same export; run it here too so the test owns its timing.
      await runExportJob(server.deps, approvedJob);
      const listed = await call('instructor', `jobs/${approvedJob}/exports`, 'GET');
      expect(listed.body.status).toBe('done');
      // Debian's flite is installed here and in CI (.ci/run), so Flite narrates.
      expect(listed.body.narrationVoice).toBe('Flite slt');
      const files = listed.body.files as Array<{ name: string; url: string; bytes: number }>;
      expect(files.map((f) => f.name)).toEqual([
        'lesson.md',
        'lesson.html',
        'lesson.mp3',
        'scorm-1.2.zip',
        'scorm-2004.zip',
        'scorm.json',
      ]);
      const markdown = await (await fetch(`${server.url}${files[0]!.url}`)).text();
      expect(markdown).toContain('## Inside the chloroplast');
      expect(markdown).toContain('Chlorophyll in the chloroplast absorbs light.');
      const zip = new Uint8Array(
        await (await fetch(`${server.url}${files[3]!.url}`)).arrayBuffer(),
      );
      expect(Object.keys(unzipSync(zip))).toEqual(['imsmanifest.xml', 'index.html', 'lesson.mp3']);
      const mp3 = await fetch(`${server.url}${files[2]!.url}`);
      expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
      // A learner of the organization may not read the job, so not its exports either.
      expect((await call('learner', `jobs/${approvedJob}/exports`, 'GET')).body).toMatchObject({
        status: 'none',
        files: [],
      });
      // The queue's own run of this export must end here: finishing later, it would overwrite
      // the files the next test makes.
      await vi.waitFor(
        async () => {
          const { rows } = await server.deps.db.query<{ running: number }>(
            `select count(*)::int as running from pgboss.job
              where name = $1 and state in ('created', 'retry', 'active')`,
            [EXPORT_JOB],
          );
          expect(rows[0]!.running).toBe(0);
        },
        { timeout: 110_000, interval: 200 },
      );
    }, 240_000);
  });

  /** An export run asked for without the queue, so the test's own run is the only one. */
  async function queueExportsHere() {
    await server.deps.db.query(
      `insert into public.adapt_exports (job_id, requested_by) values ($1, $2)
       on conflict (job_id) do update set status = 'queued', files = '[]'::jsonb`,
      [approvedJob, fx.users.instructor.id],
    );
  }

  it('stores the other formats and says why one could not be made', async () => {
    await queueExportsHere();
    await runExportJob(server.deps, approvedJob, {
      narrate: () => {
        throw new Error('the speech engine ran out of memory');
      },
    });
    const listed = await call('instructor', `jobs/${approvedJob}/exports`, 'GET');
    expect(listed.body.status).toBe('done');
    expect(listed.body.narrationVoice).toBeNull();
    const files = listed.body.files as Array<{ name: string; url: string | null; error: string }>;
    expect(files.find((f) => f.name === 'lesson.mp3')).toMatchObject({
      url: null,
      error: 'The MP3 narration could not be made: the speech engine ran out of memory',
    });
    const scorm = files.find((f) => f.name === 'scorm-1.2.zip')!;
    const zip = new Uint8Array(await (await fetch(`${server.url}${scorm.url}`)).arrayBuffer());
    expect(Object.keys(unzipSync(zip))).toEqual(['imsmanifest.xml', 'index.html']);
  }, 120_000);

  describe('publish', () => {
    it('makes a lesson and bank questions in a course the publisher teaches', async () => {
      const published = await call('instructor', `jobs/${approvedJob}/publish`, 'POST', {
        courseId: fx.course,
      });
      expect(published.status).toBe(201);
      expect(published.body.questions).toBe(3);
      const { data: lesson } = await fx
        .client('learner')
        .from('lessons')
        .select('title, kind, body, modules(title, slug)')
        .eq('id', published.body.lesson_id as string)
        .single();
      expect(lesson).toMatchObject({
        title: 'Photosynthesis',
        kind: 'markdown',
        modules: { slug: 'le-adapt', title: 'Adapted with LE Adapt' },
      });
      expect((lesson as { body: string }).body).toContain('## Inside the chloroplast');
      const { data: questions } = await fx
        .client('instructor')
        .from('questions')
        .select('slug, type, answer')
        .eq('course_id', fx.course)
        .like('slug', 'photosynthesis-%')
        .order('slug');
      expect(questions).toEqual([
        { slug: 'photosynthesis-gas-released', type: 'multiple_choice', answer: { choice: 'a' } },
        { slug: 'photosynthesis-pigment', type: 'short_text', answer: { text: 'chlorophyll' } },
        expect.objectContaining({ slug: 'photosynthesis-why-light', type: 'short_text' }),
      ]);
      // Publishing again adds another lesson; the slugs stay unique.
      const again = await call('instructor', `jobs/${approvedJob}/publish`, 'POST', {
        courseId: fx.course,
      });
      expect(again.status).toBe(201);
    });

    it('refuses a course the caller cannot edit, an unapproved job and bad input', async () => {
      expect(
        await call('instructor', `jobs/${approvedJob}/publish`, 'POST', {
          courseId: fx.personalCourse,
        }),
      ).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      expect(
        (await call('instructor', `jobs/${draftJob}/publish`, 'POST', { courseId: fx.course }))
          .status,
      ).toBe(409);
      expect(
        (await call('learner', `jobs/${approvedJob}/publish`, 'POST', { courseId: fx.course }))
          .status,
      ).toBe(404);
      expect(
        (await call('instructor', `jobs/${approvedJob}/publish`, 'POST', { courseId: 'x' })).status,
      ).toBe(400);
    });
  });

  describe('webhooks', () => {
    let secret: string;

    it("only the organization's Admins set the endpoint; private, loopback and link-local targets are refused", async () => {
      expect(
        (await call('instructor', `webhooks/${fx.orgA}`, 'PUT', { url: receiverUrl })).status,
      ).toBe(403);
      for (const [url, kind] of [
        ['http://localhost:8080/hook', 'loopback'],
        ['http://10.1.2.3/hook', 'private'],
        ['http://169.254.169.254/latest/meta-data', 'link-local'],
        ['http://[::ffff:192.168.1.10]/hook', 'private'],
      ] as const) {
        const refused = await call('org_admin', `webhooks/${fx.orgA}`, 'PUT', { url });
        expect(refused.status).toBe(400);
        expect(refused.body.error).toContain(`a ${kind} address`);
      }
      const saved = await call('org_admin', `webhooks/${fx.orgA}`, 'PUT', { url: receiverUrl });
      expect(saved.status).toBe(200);
      secret = saved.body.secret as string;
      expect(secret).toMatch(/^whsec_/);
      const { data } = await fx
        .client('instructor')
        .from('adapt_webhook_endpoints')
        .select('organization_id, url');
      expect(data).toEqual([]);
    });

    it('shows the secret once: an edit keeps it unseen, a rotation shows the new one', async () => {
      const edited = await call('org_admin', `webhooks/${fx.orgA}`, 'PUT', {
        url: receiverUrl,
        events: ['lesson.exported', 'lesson.published', 'lesson.exported'],
      });
      expect(edited).toMatchObject({
        status: 200,
        body: { secret: null, events: ['lesson.exported', 'lesson.published'], active: true },
      });
      // Not even an Admin reads it back through the API.
      const read = await fx.client('org_admin').from('adapt_webhook_endpoints').select('secret');
      expect(read.error?.message).toMatch(/permission denied/);
      const { data } = await fx
        .client('org_admin')
        .from('adapt_webhook_endpoints')
        .select('url, events');
      expect(data).toEqual([{ url: receiverUrl, events: ['lesson.exported', 'lesson.published'] }]);
      const rotated = await call('org_admin', `webhooks/${fx.orgA}`, 'PUT', {
        url: receiverUrl,
        events: ['lesson.exported', 'lesson.published'],
        rotateSecret: true,
      });
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(secret);
      secret = rotated.body.secret as string;
      for (const events of [[], ['lesson.deleted']]) {
        const refused = await call('org_admin', `webhooks/${fx.orgA}`, 'PUT', {
          url: receiverUrl,
          events,
        });
        expect(refused.status).toBe(400);
      }
    });

    it('delivers a signed JSON payload with the package links and logs it', async () => {
      received.length = 0;
      const sent = await call('instructor', `jobs/${approvedJob}/deliver`);
      expect(sent.status).toBe(202);
      await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
      const { headers, body } = received[0]!;
      const timestamp = Number(headers['x-lyceum-timestamp']);
      expect(verifyWebhook(secret, timestamp, body, String(headers['x-lyceum-signature']))).toBe(
        true,
      );
      expect(
        verifyWebhook(
          'whsec_wrong-secret-000000000',
          timestamp,
          body,
          String(headers['x-lyceum-signature']),
        ),
      ).toBe(false);
      const payload = JSON.parse(body) as { event: string; package: { scorm12: string } };
      expect(payload.event).toBe('lesson.exported');
      const zip = await fetch(payload.package.scorm12);
      expect(zip.status).toBe(200);
      await expect
        .poll(async () => {
          const { data } = await fx
            .client('org_admin')
            .from('adapt_webhook_deliveries')
            .select('status, response_code, attempts')
            .eq('id', sent.body.id as string)
            .single();
          return data;
        })
        .toEqual({ status: 'delivered', response_code: 200, attempts: 1 });
    }, 60_000);

    it('retries after a failure, with each attempt in the log', async () => {
      const { rows } = await server.deps.db.query<{ id: string }>(
        `insert into public.adapt_webhook_deliveries (organization_id, job_id, url, payload)
         values ($1, $2, $3, '{"event":"lesson.exported"}') returning id`,
        [fx.orgA, approvedJob, receiverUrl],
      );
      const id = rows[0]!.id;
      answers.push(503);
      await expect(runWebhookDelivery(server.deps, id)).rejects.toThrow(
        'The endpoint answered 503.',
      );
      await runWebhookDelivery(server.deps, id);
      const { data } = await fx
        .client('org_admin')
        .from('adapt_webhook_deliveries')
        .select(
          'status, attempts, response_code, adapt_webhook_attempts(attempt, response_code, error)',
        )
        .eq('id', id)
        .single();
      expect(data).toMatchObject({ status: 'delivered', attempts: 2, response_code: 200 });
      const attempts = (
        data as { adapt_webhook_attempts: Array<{ attempt: number }> }
      ).adapt_webhook_attempts.sort((a, b) => a.attempt - b.attempt);
      expect(attempts).toEqual([
        { attempt: 1, response_code: 503, error: 'The endpoint answered 503.' },
        { attempt: 2, response_code: 200, error: null },
      ]);
    });

    it('says when a retrying delivery is tried next', async () => {
      const { rows } = await server.deps.db.query<{ id: string }>(
        `insert into public.adapt_webhook_deliveries (organization_id, job_id, url, payload)
         values ($1, $2, $3, '{"event":"lesson.exported"}') returning id`,
        [fx.orgA, approvedJob, receiverUrl],
      );
      answers.push(500, 500);
      await expect(runWebhookDelivery(server.deps, rows[0]!.id)).rejects.toThrow();
      await expect(runWebhookDelivery(server.deps, rows[0]!.id)).rejects.toThrow();
      const { data } = await fx
        .client('org_admin')
        .from('adapt_webhook_deliveries')
        .select(
          'status, attempts, created_at, next_attempt_at, adapt_webhook_attempts(attempted_at)',
        )
        .eq('id', rows[0]!.id)
        .single();
      const row = data as {
        status: string;
        attempts: number;
        next_attempt_at: string;
        adapt_webhook_attempts: Array<{ attempted_at: string }>;
      };
      expect(row).toMatchObject({ status: 'retrying', attempts: 2 });
      // The second retry waits at least 60 s (30 s doubled) after the second attempt.
      const last = Math.max(...row.adapt_webhook_attempts.map((a) => Date.parse(a.attempted_at)));
      expect(Date.parse(row.next_attempt_at) - last).toBeGreaterThanOrEqual(59_000);
      await runWebhookDelivery(server.deps, rows[0]!.id);
      const after = await server.deps.db.query<{ next_attempt_at: string | null }>(
        'select next_attempt_at from public.adapt_webhook_deliveries where id = $1',
        [rows[0]!.id],
      );
      expect(after.rows[0]!.next_attempt_at).toBeNull();
    });

    /** A delivery the queue is working on, once its attempt is logged. */
    async function settled(id: string) {
      await expect
        .poll(
          async () => {
            const { rows } = await server.deps.db.query<{ status: string }>(
              'select status from public.adapt_webhook_deliveries where id = $1',
              [id],
            );
            return rows[0]!.status;
          },
          { timeout: 30_000 },
        )
        .not.toBe('pending');
    }

    it('sends a test through the SSRF guard, once, for Admins only', async () => {
      received.length = 0;
      expect((await call('instructor', `webhooks/${fx.orgA}/test`)).status).toBe(403);
      const sent = await call('org_admin', `webhooks/${fx.orgA}/test`);
      expect(sent.status).toBe(202);
      await settled(sent.body.id as string);
      const test = received.find((r) => r.headers['x-lyceum-event'] === 'webhook.test')!;
      expect(JSON.parse(test.body)).toMatchObject({
        event: 'webhook.test',
        organization: { id: fx.orgA },
      });
      expect(
        verifyWebhook(
          secret,
          Number(test.headers['x-lyceum-timestamp']),
          test.body,
          String(test.headers['x-lyceum-signature']),
        ),
      ).toBe(true);
      // An endpoint that now points at the cloud's metadata address is refused at the attempt.
      await server.deps.db.query(
        `update public.adapt_webhook_endpoints set url = 'http://169.254.169.254/hook' where organization_id = $1`,
        [fx.orgA],
      );
      const guarded = await call('org_admin', `webhooks/${fx.orgA}/test`);
      await settled(guarded.body.id as string);
      const { data } = await fx
        .client('org_admin')
        .from('adapt_webhook_deliveries')
        .select('event, status, attempts, error, job_id')
        .eq('id', guarded.body.id as string)
        .single();
      expect(data).toMatchObject({
        event: 'webhook.test',
        status: 'refused',
        attempts: 1,
        job_id: null,
      });
      expect((data as { error: string }).error).toContain('a link-local address');
      await server.deps.db.query(
        'update public.adapt_webhook_endpoints set url = $2 where organization_id = $1',
        [fx.orgA, receiverUrl],
      );
      // A test that fails is not retried.
      answers.push(503);
      const failing = await call('org_admin', `webhooks/${fx.orgA}/test`);
      await settled(failing.body.id as string);
      const failed = await server.deps.db.query<{ status: string; next_attempt_at: null }>(
        'select status, next_attempt_at from public.adapt_webhook_deliveries where id = $1',
        [failing.body.id],
      );
      expect(failed.rows[0]).toEqual({ status: 'failed', next_attempt_at: null });
    }, 60_000);

    it('redelivers a logged delivery as a new one, for Admins', async () => {
      const { data: old } = await fx
        .client('org_admin')
        .from('adapt_webhook_deliveries')
        .select('id')
        .eq('status', 'failed')
        .limit(1)
        .single();
      expect((await call('learner', `deliveries/${old!.id}/redeliver`)).status).toBe(404);
      received.length = 0;
      const again = await call('org_admin', `deliveries/${old!.id}/redeliver`);
      expect(again.status).toBe(202);
      expect(again.body.id).not.toBe(old!.id);
      await settled(again.body.id as string);
      expect(received.map((r) => r.headers['x-lyceum-event'])).toContain('webhook.test');
      const { data } = await fx
        .client('org_admin')
        .from('adapt_webhook_deliveries')
        .select('status, response_code')
        .eq('id', again.body.id as string)
        .single();
      expect(data).toEqual({ status: 'delivered', response_code: 200 });
      expect((await call('org_admin', 'deliveries/not-a-uuid/redeliver')).status).toBe(400);
    });

    it('sends lesson.exported when exports are ready, and lesson.published on publishing, as chosen', async () => {
      received.length = 0;
      await queueExportsHere();
      await runExportJob({ ...server.deps, siteUrl: server.url }, approvedJob);
      await call('instructor', `jobs/${approvedJob}/publish`, 'POST', { courseId: fx.course });
      await expect
        .poll(() => received.map((r) => r.headers['x-lyceum-event']).sort(), { timeout: 30_000 })
        .toEqual(['lesson.exported', 'lesson.published']);
      const published = JSON.parse(
        received.find((r) => r.headers['x-lyceum-event'] === 'lesson.published')!.body,
      ) as { course: { id: string }; questions: number };
      expect(published).toMatchObject({ course: { id: fx.course }, questions: 3 });
      const exported = JSON.parse(
        received.find((r) => r.headers['x-lyceum-event'] === 'lesson.exported')!.body,
      ) as { package: { scorm2004: string } };
      expect((await fetch(exported.package.scorm2004)).status).toBe(200);
    }, 120_000);

    it('sends a signed lesson.approved delivery with the documented payload when a Reviewer approves', async () => {
      const saved = await call('org_admin', `webhooks/${fx.orgA}`, 'PUT', {
        url: receiverUrl,
        events: ['lesson.exported', 'lesson.approved'],
      });
      expect(saved.status).toBe(200);
      const job = await finishedJob();
      received.length = 0;
      const approved = await fetch(`${server.url}/functions/v1/adapt/jobs/${job}/approve`, {
        method: 'POST',
        headers: {
          apikey: server.anonKey,
          Authorization: `Bearer ${fx.users.org_admin.token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ note: 'Ready for the LMS.' }),
      });
      expect(approved.status).toBe(200);
      await expect
        .poll(() => received.filter((r) => r.headers['x-lyceum-event'] === 'lesson.approved'), {
          timeout: 30_000,
        })
        .toHaveLength(1);
      const { headers, body } = received.find(
        (r) => r.headers['x-lyceum-event'] === 'lesson.approved',
      )!;
      expect(headers['content-type']).toBe('application/json');
      const timestamp = Number(headers['x-lyceum-timestamp']);
      expect(verifyWebhook(secret, timestamp, body, String(headers['x-lyceum-signature']))).toBe(
        true,
      );
      const { rows: approval } = await server.deps.db.query<{ approved_at: Date | string }>(
        'select approved_at from public.adapt_jobs where id = $1',
        [job],
      );
      const payload = JSON.parse(body) as LessonApprovedPayload;
      expect(payload).toEqual({
        event: 'lesson.approved',
        job: { id: job, title: 'Photosynthesis' },
        lesson: {
          title: 'Photosynthesis',
          language: 'en',
          profile: 'adhd',
          readingGrade: reviewed.lesson.readingLevel.after.grade,
          estimatedMinutes: reviewed.lesson.sections.reduce((n, s) => n + s.minutes, 0),
        },
        approval: { at: expect.any(String), note: 'Ready for the LMS.' },
      });
      expect(Date.parse(payload.approval.at)).toBe(new Date(approval[0]!.approved_at).getTime());
      // The delivery is in the log under its id, delivered, as the requester and Admins read it.
      const { data } = await fx
        .client('org_admin')
        .from('adapt_webhook_deliveries')
        .select('event, status, response_code, job_id, requested_by')
        .eq('id', String(headers['x-lyceum-delivery']))
        .single();
      await expect
        .poll(async () => {
          const { data: row } = await fx
            .client('org_admin')
            .from('adapt_webhook_deliveries')
            .select('status')
            .eq('id', String(headers['x-lyceum-delivery']))
            .single();
          return row;
        })
        .toEqual({ status: 'delivered' });
      expect(data).toMatchObject({
        event: 'lesson.approved',
        job_id: job,
        requested_by: fx.users.org_admin.id,
      });

      // An endpoint that does not take the event gets nothing on the next approval.
      await call('org_admin', `webhooks/${fx.orgA}`, 'PUT', {
        url: receiverUrl,
        events: ['lesson.exported', 'lesson.published'],
      });
      const quiet = await finishedJob();
      const again = await fetch(`${server.url}/functions/v1/adapt/jobs/${quiet}/approve`, {
        method: 'POST',
        headers: {
          apikey: server.anonKey,
          Authorization: `Bearer ${fx.users.org_admin.token}`,
          'Content-Type': 'application/json',
        },
        body: '{}',
      });
      expect(again.status).toBe(200);
      const { rows: none } = await server.deps.db.query(
        'select id from public.adapt_webhook_deliveries where job_id = $1',
        [quiet],
      );
      expect(none).toEqual([]);
    }, 60_000);

    it('marks a delivery refused when its target is no longer allowed, without retrying', async () => {
      const { rows } = await server.deps.db.query<{ id: string }>(
        `insert into public.adapt_webhook_deliveries (organization_id, job_id, url, payload)
         values ($1, $2, 'http://169.254.169.254/hook', '{}') returning id`,
        [fx.orgA, approvedJob],
      );
      await runWebhookDelivery(server.deps, rows[0]!.id);
      const { rows: after } = await server.deps.db.query<{ status: string; error: string }>(
        'select status, error from public.adapt_webhook_deliveries where id = $1',
        [rows[0]!.id],
      );
      expect(after[0]!.status).toBe('refused');
      expect(after[0]!.error).toContain('a link-local address');
    });

    it('refuses a delivery for a job no Reviewer approved', async () => {
      expect((await call('instructor', `jobs/${draftJob}/deliver`)).status).toBe(409);
    });

    it('deletes the endpoint for Admins only; then nothing is sent', async () => {
      expect((await call('instructor', `webhooks/${fx.orgA}`, 'DELETE')).status).toBe(403);
      expect(await call('org_admin', `webhooks/${fx.orgA}`, 'DELETE')).toMatchObject({
        status: 200,
        body: { deleted: true },
      });
      expect((await call('org_admin', `webhooks/${fx.orgA}`, 'DELETE')).status).toBe(404);
      // Nor can an Admin write the endpoint past the guard through REST.
      await fx
        .client('org_admin')
        .from('adapt_webhook_endpoints')
        .insert({
          organization_id: fx.orgA,
          url: 'http://10.0.0.1/',
          secret: 'whsec_x'.padEnd(30, 'x'),
        });
      expect((await fx.service.from('adapt_webhook_endpoints').select('url')).data).toEqual([]);
      const refused = await call('instructor', `jobs/${approvedJob}/deliver`);
      expect(refused).toMatchObject({ status: 409 });
      expect(refused.body.error).toContain('no active webhook endpoint');
      expect((await call('org_admin', `webhooks/${fx.orgA}/test`)).status).toBe(409);
    });
  });
});
