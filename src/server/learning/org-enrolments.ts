/**
 * The organization admin's enrolments: the list (searched by person or course on the server)
 * and the CSV import (decision 0130). The import is all or nothing: every line is checked
 * first, and if any is wrong nothing is written and the report names each wrong line; a file
 * past the size or row limit is refused whole.
 */
import type {
  EnrolmentPage,
  EnrolmentQuery,
  ImportReport,
  ImportRowProblem,
  OrgEnrolment,
} from '../../common/org-people';
import {
  ENROLMENTS_PAGE_SIZE,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  importColumns,
} from '../../common/org-people';
import type { Database, Queryable } from '../db/types';
import { isBlankRecord, parseCsv } from './csv';
import { PeopleError, requireAdminScope, type AdminScope } from './org-people';

interface EnrolmentDbRow {
  id: string;
  user_id: string;
  email: string | null;
  full_name: string | null;
  course_id: string;
  course_title: string;
  status: OrgEnrolment['status'];
  progress_percent: number;
  enrolled_at: Date | string;
}

function ilike(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const enrolmentsSql = `
  select e.id, e.user_id, u.email, coalesce(pr.full_name, pr.display_name) as full_name,
         e.course_id, c.title as course_title, e.status, e.progress_percent::int as progress_percent,
         e.enrolled_at
    from public.enrollments e
    join public.courses c on c.id = e.course_id and c.organization_id = $1
    join auth.users u on u.id = e.user_id
    left join public.profiles pr on pr.id = e.user_id
   where ($2 = '' or u.email ilike $3 or pr.full_name ilike $3 or pr.display_name ilike $3
          or c.title ilike $3)
     and ($4 = '' or e.course_id::text = $4)
     and ($5::uuid[] is null
          or exists (select 1 from public.course_boards cb
                       join public.memberships m on m.board_id = cb.board_id and m.user_id = e.user_id
                      where cb.course_id = e.course_id and cb.board_id = any ($5::uuid[])))`;

export async function listEnrolments(
  db: Database,
  actor: string,
  org: string,
  query: EnrolmentQuery,
): Promise<EnrolmentPage> {
  return db.transaction(async (tx) => {
    const scope = await requireAdminScope(tx, actor, org);
    const params = [org, query.q, ilike(query.q), query.courseId, scope.boards];
    const counted = await tx.query<{ n: number }>(
      `select count(*)::int as n from (${enrolmentsSql}) counted`,
      params,
    );
    const { rows } = await tx.query<EnrolmentDbRow & Record<string, unknown>>(
      `${enrolmentsSql} order by e.enrolled_at desc, e.id limit $6 offset $7`,
      [...params, ENROLMENTS_PAGE_SIZE, (query.page - 1) * ENROLMENTS_PAGE_SIZE],
    );
    return {
      total: counted.rows[0]!.n,
      enrolments: rows.map((row) => ({
        id: row.id,
        userId: row.user_id,
        email: row.email ?? '',
        fullName: row.full_name,
        courseId: row.course_id,
        courseTitle: row.course_title,
        status: row.status,
        progressPercent: row.progress_percent,
        enrolledAt: new Date(row.enrolled_at).toISOString(),
      })),
    };
  });
}

// ----- CSV import ------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the `role` column may say; an import enrols, so it grants learning roles only. */
const importRoles: Record<string, 'learner' | 'instructor'> = {
  student: 'learner',
  learner: 'learner',
  instructor: 'instructor',
};

interface ImportLine {
  line: number;
  email: string;
  course: string;
  role: string;
  board: string;
  problems: string[];
}

interface Resolved {
  userId: string;
  courseId: string;
  /** The membership to add first, when the member does not hold it yet. */
  membership?: { role: 'learner' | 'instructor'; boardId: string | null };
}

function emptyReport(rows: number, problems: ImportRowProblem[]): ImportReport {
  return {
    applied: false,
    rows,
    problems,
    enrolled: 0,
    reactivated: 0,
    alreadyEnrolled: 0,
    membershipsAdded: 0,
  };
}

function fileProblem(line: number, message: string): ImportRowProblem {
  return { line, email: '', course: '', problems: [message] };
}

/** Reads the file into lines with their fields by column name; file-level problems first. */
function readLines(text: string): { lines: ImportLine[]; problems: ImportRowProblem[] } {
  const parsed = parseCsv(text);
  const problems: ImportRowProblem[] = [];
  const records = parsed.records.filter((record) => !isBlankRecord(record));
  const header = records[0];
  if (!header) {
    const message = parsed.error
      ? parsed.error.message
      : `The file is empty. Its first line names the columns: ${importColumns.join(', ')}.`;
    return { lines: [], problems: [fileProblem(parsed.error?.line ?? 1, message)] };
  }
  const names = header.fields.map((field) => field.trim().toLowerCase());
  const unknown = names.filter((name) => !(importColumns as readonly string[]).includes(name));
  const missing = ['email', 'course'].filter((name) => !names.includes(name));
  const repeated = names.filter((name, i) => names.indexOf(name) !== i);
  const headerProblems = [
    ...unknown.map(
      (name) =>
        `Unknown column “${name || '(empty)'}”; the columns are ${importColumns.join(', ')} (role and board optional).`,
    ),
    ...missing.map((name) => `The column “${name}” is missing from the first line.`),
    ...repeated.map((name) => `The column “${name}” appears twice.`),
  ];
  if (headerProblems.length > 0) {
    return {
      lines: [],
      problems: [{ line: header.line, email: '', course: '', problems: headerProblems }],
    };
  }
  const lines: ImportLine[] = [];
  for (const record of records.slice(1)) {
    const value = (name: string) => {
      const index = names.indexOf(name);
      return index === -1 ? '' : (record.fields[index] ?? '').trim();
    };
    const line: ImportLine = {
      line: record.line,
      email: value('email').toLowerCase(),
      course: value('course'),
      role: value('role').toLowerCase(),
      board: value('board'),
      problems: [],
    };
    if (record.fields.length !== names.length) {
      line.problems.push(
        `Expected ${names.length} fields (${names.join(', ')}), found ${record.fields.length}.`,
      );
    }
    lines.push(line);
  }
  if (parsed.error) problems.push(fileProblem(parsed.error.line, parsed.error.message));
  return { lines, problems };
}

/**
 * What the import may see: the organization's members, courses and boards, or for a board
 * admin those of their boards — members with a membership there, courses distributed there.
 */
async function lookups(tx: Queryable, org: string, scope: AdminScope, lines: ImportLine[]) {
  const emails = [...new Set(lines.map((l) => l.email).filter(Boolean))];
  const courseKeys = [...new Set(lines.map((l) => l.course).filter(Boolean))];
  const members = await tx.query<{ id: string; email: string }>(
    `select u.id, lower(u.email) as email from auth.users u
      where lower(u.email) = any($2::text[])
        and exists (select 1 from public.memberships m
                     where m.user_id = u.id and m.organization_id = $1
                       and ($3::uuid[] is null or m.board_id = any ($3::uuid[])))`,
    [org, emails, scope.boards],
  );
  const courses = await tx.query<{ id: string; slug: string | null; board_ids: string[] }>(
    `select c.id, c.slug,
            array(select cb.board_id::text from public.course_boards cb
                   where cb.course_id = c.id
                     and ($4::uuid[] is null or cb.board_id = any ($4::uuid[]))) as board_ids
       from public.courses c
      where c.organization_id = $1
        and (c.id::text = any($2::text[]) or lower(c.slug) = any($3::text[]))`,
    [
      org,
      courseKeys.filter((k) => UUID.test(k)).map((k) => k.toLowerCase()),
      courseKeys.map((k) => k.toLowerCase()),
      scope.boards,
    ],
  );
  const boards = await tx.query<{ id: string; slug: string; name: string }>(
    `select id, slug, name from public.boards
      where organization_id = $1 and ($2::uuid[] is null or id = any ($2::uuid[]))`,
    [org, scope.boards],
  );
  const memberIds = members.rows.map((m) => m.id);
  const memberships = await tx.query<{
    user_id: string;
    role: string;
    board_id: string | null;
    active: boolean;
  }>(
    `select user_id, role, board_id, active from public.memberships
      where organization_id = $1 and user_id = any($2::uuid[])
        and ($3::uuid[] is null or board_id = any ($3::uuid[]))`,
    [org, memberIds, scope.boards],
  );
  const enrolments = await tx.query<{ user_id: string; course_id: string; status: string }>(
    `select user_id, course_id, status from public.enrollments
      where user_id = any($1::uuid[]) and course_id = any($2::uuid[])`,
    [memberIds, courses.rows.map((c) => c.id)],
  );
  return {
    memberByEmail: new Map(members.rows.map((m) => [m.email, m.id])),
    /** For a board admin, the boards of theirs each course is distributed to. */
    courseBoards: new Map(courses.rows.map((c) => [c.id, c.board_ids] as const)),
    courseByKey: new Map(
      courses.rows.flatMap((c) => [
        [c.id.toLowerCase(), c.id] as const,
        ...(c.slug ? [[c.slug.toLowerCase(), c.id] as const] : []),
      ]),
    ),
    boardByKey: new Map(
      boards.rows.flatMap((b) => [
        [b.slug.toLowerCase(), b.id] as const,
        [b.name.trim().toLowerCase(), b.id] as const,
      ]),
    ),
    memberships: memberships.rows,
    enrolmentStatus: new Map(
      enrolments.rows.map((e) => [`${e.user_id}:${e.course_id}`, e.status] as const),
    ),
  };
}

/**
 * Checks (and unless `dryRun`, applies) an enrolment CSV: columns email, course (slug or id
 * of a course of this organization), role (student or instructor) and board (slug or name),
 * the last two optional. Each email must belong to a member of the organization; a role or
 * board the member does not hold yet is added, active, before the enrolment.
 */
export async function importEnrolments(
  db: Database,
  actor: string,
  org: string,
  bytes: Uint8Array,
  options: { dryRun: boolean },
): Promise<ImportReport> {
  if (bytes.byteLength > IMPORT_MAX_BYTES) {
    throw new PeopleError(
      413,
      'file_too_large',
      `The file is ${Math.ceil(bytes.byteLength / 1024)} KB; import at most ${IMPORT_MAX_BYTES / 1024} KB at a time (split it into several files).`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PeopleError(
      400,
      'invalid_file',
      'The file is not UTF-8 text. Save it as “CSV UTF-8” and try again.',
    );
  }
  const { lines, problems: fileProblems } = readLines(text);
  if (lines.length > IMPORT_MAX_ROWS) {
    throw new PeopleError(
      413,
      'too_many_rows',
      `The file has ${lines.length} lines; import at most ${IMPORT_MAX_ROWS} at a time (split it into several files).`,
    );
  }

  return db.transaction(async (tx) => {
    const scope = await requireAdminScope(tx, actor, org);
    const where = scope.boards ? 'of your boards' : 'of this organization';
    if (lines.length === 0 && fileProblems.length === 0) {
      return emptyReport(0, [
        fileProblem(2, 'The file has a header but no enrolments: add one line per enrolment.'),
      ]);
    }
    const found = await lookups(tx, org, scope, lines);
    const seen = new Map<string, number>();
    const resolved: Resolved[] = [];
    const added = new Set<string>();
    for (const line of lines) {
      if (!line.email) line.problems.push('The email is empty.');
      else if (!EMAIL.test(line.email) || line.email.length > 254)
        line.problems.push(`“${line.email}” is not an email address.`);
      const userId = line.email ? found.memberByEmail.get(line.email) : undefined;
      if (line.email && EMAIL.test(line.email) && !userId)
        line.problems.push(`No member ${where} has the email ${line.email}; invite them first.`);
      const courseId = line.course ? found.courseByKey.get(line.course.toLowerCase()) : undefined;
      if (!line.course) line.problems.push('The course is empty.');
      else if (!courseId)
        line.problems.push(`No course ${where} has the slug or id “${line.course}”.`);
      let role: 'learner' | 'instructor' | undefined;
      if (line.role) {
        role = importRoles[line.role];
        if (!role) line.problems.push(`The role “${line.role}” is not student or instructor.`);
      }
      let boardId: string | null = null;
      if (line.board) {
        boardId = found.boardByKey.get(line.board.toLowerCase()) ?? null;
        if (!boardId) line.problems.push(`No board ${where} is called “${line.board}”.`);
      } else if (role && scope.boards) {
        // A board admin grants roles on their boards only: the only one, or the one named.
        if (scope.boards.length === 1) boardId = scope.boards[0]!;
        else line.problems.push('Name the board (one of yours) the role is for.');
      }
      if (userId && courseId) {
        const key = `${userId}:${courseId}`;
        const earlier = seen.get(key);
        if (earlier !== undefined)
          line.problems.push(`The same email and course as line ${earlier}.`);
        else seen.set(key, line.line);
      }
      if (line.problems.length > 0 || !userId || !courseId) continue;
      const held = found.memberships.filter((m) => m.user_id === userId);
      if (!held.some((m) => m.active)) {
        line.problems.push('This member is deactivated; reactivate them first.');
        continue;
      }
      if (scope.boards) {
        const boardsOfPerson = new Set([
          ...held.filter((m) => m.active).map((m) => m.board_id),
          ...(boardId ? [boardId] : []),
        ]);
        if (!(found.courseBoards.get(courseId) ?? []).some((b) => boardsOfPerson.has(b))) {
          line.problems.push(
            'This course is not distributed to a board of yours this person belongs to.',
          );
          continue;
        }
      }
      let membership: Resolved['membership'];
      if (role || boardId) {
        const wanted = { role: role ?? 'learner', boardId };
        const holds = held.some(
          (m) => m.role === wanted.role && (m.board_id ?? null) === wanted.boardId,
        );
        const key = `${userId}:${wanted.role}:${wanted.boardId ?? ''}`;
        if (!holds && !added.has(key)) {
          added.add(key);
          membership = wanted;
        }
      } else if (
        !held.some((m) => m.active && ['learner', 'instructor', 'org_admin'].includes(m.role))
      ) {
        line.problems.push(
          'This member holds no learning role here; add a role column saying student.',
        );
        continue;
      }
      resolved.push({ userId, courseId, membership });
    }

    const problems: ImportRowProblem[] = [
      ...lines
        .filter((l) => l.problems.length > 0)
        .map((l) => ({ line: l.line, email: l.email, course: l.course, problems: l.problems })),
      ...fileProblems,
    ].sort((a, b) => a.line - b.line);

    const report: ImportReport = emptyReport(lines.length, problems);
    for (const row of resolved) {
      const status = found.enrolmentStatus.get(`${row.userId}:${row.courseId}`);
      if (status === undefined) report.enrolled += 1;
      else if (status === 'dropped') report.reactivated += 1;
      else report.alreadyEnrolled += 1;
      if (row.membership) report.membershipsAdded += 1;
    }
    if (problems.length > 0 || options.dryRun) return report;

    const memberships = resolved.filter((r) => r.membership);
    if (memberships.length > 0) {
      const wanted = memberships.map((r) => ({
        user_id: r.userId,
        role: r.membership!.role,
        board_id: r.membership!.boardId,
      }));
      const refused = await tx.query<{ user_id: string }>(
        `select w.user_id from jsonb_to_recordset($3::jsonb) as w(user_id uuid, role text, board_id uuid)
          where not learning.may_manage_membership($1, $2, w.board_id, w.role, w.user_id)
          limit 1`,
        [actor, org, JSON.stringify(wanted)],
      );
      if (refused.rows.length > 0)
        throw new PeopleError(
          403,
          'forbidden',
          'You may not give these roles in this organization',
        );
      await tx.query(
        `insert into public.memberships (user_id, organization_id, board_id, role, active, created_by)
         select w.user_id, $2, w.board_id, w.role, true, $1
           from jsonb_to_recordset($3::jsonb) as w(user_id uuid, role text, board_id uuid)
         on conflict do nothing`,
        [actor, org, JSON.stringify(wanted)],
      );
    }
    await tx.query(
      `insert into public.enrollments (user_id, course_id, enrolled_by)
       select w.user_id, w.course_id, $1
         from jsonb_to_recordset($2::jsonb) as w(user_id uuid, course_id uuid)
       on conflict on constraint enrollments_user_id_course_id_key do update
         set status = 'active', enrolled_by = excluded.enrolled_by
         where public.enrollments.status = 'dropped'`,
      [actor, JSON.stringify(resolved.map((r) => ({ user_id: r.userId, course_id: r.courseId })))],
    );
    return { ...report, applied: true };
  });
}
