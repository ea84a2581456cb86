/**
 * The demo organization: seeded on an embedded first start (DEMO_SEED on), loaded from
 * content/courses/, usable by its five accounts with the printed password, and seeded once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger';
import {
  listCourseDirectories,
  readCourseDirectory,
} from '../../src/server/learning/course-content';
import { DEMO_PASSWORD, demoAccounts, seedLearningDemo } from '../../src/server/learning/demo-seed';
import { defaultLibraryDir, seedDemoReadings } from '../../src/server/library/demo-readings';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const courses = listCourseDirectories().map(readCourseDirectory);

describe.each(databaseKinds)('demo seed on %s', (kind) => {
  let server: TestServer;
  const lines: string[] = [];
  const log = createLogger('info', (line) => lines.push(line));

  beforeAll(async () => {
    // Start-up seeds in embedded mode only; on PostgreSQL the same loader is called directly.
    server = await startTestServer(kind, { DEMO_SEED: 'true', LOG_LEVEL: 'info' }, { log });
    if (kind === 'postgres') {
      await seedLearningDemo(server.deps.db, log);
      await seedDemoReadings(server.deps.db, server.deps.storage, log);
    }
  }, 120_000);
  afterAll(() => server?.stop());

  async function signIn(email: string) {
    const { data, error } = await server
      .anon()
      .auth.signInWithPassword({ email, password: DEMO_PASSWORD });
    expect(error).toBeNull();
    return {
      id: data.user!.id,
      client: testClient(server, server.anonKey, data.session!.access_token),
    };
  }

  it('prints the demo accounts and their password once', () => {
    const seeded = lines
      .map((line) => (JSON.parse(line) as { msg: string }).msg)
      .filter((msg) => msg.startsWith('Demo organization'));
    expect(seeded).toHaveLength(1);
    for (const account of demoAccounts) expect(seeded[0]).toContain(account.email);
    expect(seeded[0]).toContain(`password ${DEMO_PASSWORD} for`);
  });

  it('loads every course of content/courses with its modules, lessons and bank', async () => {
    const student = await signIn('student@lyceum-university.example');
    const { data: enrolled } = await student.client
      .from('enrollments')
      .select('course_id')
      .eq('user_id', student.id);
    expect(enrolled).toHaveLength(courses.length);

    const instructor = await signIn('instructor@lyceum-university.example');
    for (const course of courses) {
      const { data: row } = await instructor.client
        .from('courses')
        .select('id, title, sample, published')
        .eq('slug', course.manifest.slug)
        .single();
      expect(row).toMatchObject({ title: course.manifest.title, sample: true, published: true });
      const id = (row as { id: string }).id;
      const count = async (table: string) =>
        (
          await instructor.client
            .from(table)
            .select('id', { count: 'exact', head: true })
            .eq('course_id', id)
        ).count;
      expect(await count('modules')).toBe(course.manifest.modules.length);
      // Plus the sample reader of content/library, when the course has one.
      const reader = ['pdf', 'epub'].find((ext) =>
        fs.existsSync(path.join(defaultLibraryDir(), `${course.manifest.slug}-reader.${ext}`)),
      );
      expect(await count('lessons')).toBe(
        course.manifest.modules.flatMap((m) => m.lessons).length + (reader ? 1 : 0),
      );
      if (reader) {
        const { data: found } = await student.client.rpc('search_library', {
          query: 'sample reader',
          course: id,
          kinds: [reader],
        });
        // The lesson by its title, and the file's title page, which says it is a sample.
        const hits = found as { kind: string; position: number | null }[];
        expect(hits.some((h) => h.kind === reader && h.position === 1)).toBe(true);
      }
      expect(await count('questions')).toBe(course.questions.length);

      const first = course.manifest.modules[0]!;
      const { data: lesson } = await student.client
        .from('lessons')
        .select('body')
        .eq('course_id', id)
        .eq('slug', first.lessons[0]!.slug)
        .single();
      expect((lesson as { body: string }).body).toBe(
        course.bodies.get(`${first.slug}/${first.lessons[0]!.slug}`),
      );
    }
  });

  it('gives the student working quizzes and the compliance officer no course content', async () => {
    const student = await signIn('student@lyceum-university.example');
    const { data: quizzes } = await student.client.from('assessments').select('id, title');
    expect(quizzes!.length).toBeGreaterThanOrEqual(courses.length);
    const questions = await student.client.rpc('get_assessment_questions', {
      assessment_id: (quizzes as { id: string }[])[0]!.id,
    });
    expect(questions.error).toBeNull();
    expect((questions.data as unknown[]).length).toBeGreaterThan(0);

    const compliance = await signIn('compliance@lyceum-university.example');
    expect((await compliance.client.from('courses').select('id')).data).toEqual([]);
    expect((await compliance.client.from('lessons').select('id')).data).toEqual([]);
    const { data: org } = await compliance.client.from('organizations').select('name');
    expect(org).toEqual([{ name: 'Lyceum University' }]);

    const owner = await signIn('owner@lyceum-university.example');
    const { data: boards } = await owner.client.from('boards').select('name').order('name');
    expect(boards).toEqual([{ name: 'Faculty of Arts' }, { name: 'Faculty of Science' }]);

    // The Arts admin holds an org_admin membership of that board only.
    const artsAdmin = await signIn('arts-admin@lyceum-university.example');
    const { data: adminships } = await artsAdmin.client
      .from('memberships')
      .select('role, board:boards(name)')
      .eq('user_id', artsAdmin.id);
    expect(adminships).toEqual([{ role: 'org_admin', board: { name: 'Faculty of Arts' } }]);
  });

  it('seeds once, and skips an invalid course directory with a warning when it runs again', async () => {
    expect(await seedLearningDemo(server.deps.db, log)).toEqual({ seeded: false, courses: [] });

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'courses-'));
    fs.mkdirSync(path.join(dir, 'broken'));
    fs.writeFileSync(path.join(dir, 'broken', 'course.json'), '{"slug": "broken"}');
    fs.writeFileSync(path.join(dir, 'broken', 'questions.json'), '[]');
    await server.deps.db.query(`delete from learning.seed_runs`);
    try {
      expect(await seedLearningDemo(server.deps.db, log, { coursesDir: dir })).toEqual({
        seeded: true,
        courses: [],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(lines.some((line) => line.includes('course skipped') && line.includes('broken'))).toBe(
      true,
    );
    const { data: orgs } = await server.service().from('organizations').select('slug');
    expect(orgs).toEqual([{ slug: 'lyceum-university' }]);
  });
});
