/**
 * The public API's operations (decisions 0610, 0611): what `/api/openapi.json` documents. REST
 * tables and procedures are named here and described from the database catalogue — the
 * definitions PostgREST-style requests are checked against — and edge functions bring the zod
 * schemas their handlers validate with. Nothing is written down twice.
 */
import { z } from 'zod';
import {
  newMemberSchema,
  memberQuerySchema,
  enrolmentQuerySchema,
  setRolesSchema,
} from '../../common/org-people';
import { exportQuerySchema, exportRowSchema } from '../../common/organization-export';
import {
  addedMemberSchema,
  deactivationSchema,
  enrolmentPageSchema,
  importReportSchema,
  memberPageSchema,
  memberAnswerSchema,
} from './response-schemas';

export type Tag = 'Users' | 'Enrolments' | 'Progress and results' | 'Export' | 'Organization';

export const tags: { name: Tag; description: string }[] = [
  {
    name: 'Users',
    description:
      "The organization's people: list them through `profiles` and `memberships`; add, change roles, deactivate and reactivate through the org-people function.",
  },
  { name: 'Enrolments', description: 'Enrol and unenrol learners, one, a board or a CSV file.' },
  {
    name: 'Progress and results',
    description: 'Enrolments with progress, lesson progress and graded quiz attempts.',
  },
  { name: 'Export', description: 'Every enrolment with progress and results, as JSON or CSV.' },
  { name: 'Organization', description: 'Courses and boards the other operations refer to.' },
];

export type TableMethod = 'get' | 'post' | 'patch' | 'delete';

export interface TableOperations {
  table: string;
  tag: Tag;
  /** What the table holds, for a reader of the reference. */
  description: string;
  methods: Partial<Record<TableMethod, string>>;
}

export interface RpcOperation {
  name: string;
  tag: Tag;
  summary: string;
  description: string;
  /** The JSON the procedure returns (the catalogue only says `jsonb` or a scalar). */
  returns: z.ZodType;
}

export interface FunctionOperation {
  /** `/functions/v1/…` with `{org}` and `{user}` path parameters. */
  path: string;
  method: 'get' | 'post' | 'put';
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A body that is not JSON (the CSV import). */
  rawBody?: { mediaType: string; description: string };
  response: { status: 200 | 201; schema: z.ZodType; mediaTypes?: string[] };
}

export const tableOperations: TableOperations[] = [
  {
    table: 'profiles',
    tag: 'Users',
    description:
      "One row per person of the organization (its members' profiles). An organization key sees its own organization's people only.",
    methods: { get: 'List the organization’s users' },
  },
  {
    table: 'memberships',
    tag: 'Users',
    description:
      'Who belongs to the organization, in which role and board, and whether the membership is active. Setting `active` to false deactivates a person as the people screen does.',
    methods: {
      get: 'List memberships and roles',
      patch: 'Deactivate or reactivate memberships',
    },
  },
  {
    table: 'enrollments',
    tag: 'Enrolments',
    description:
      'A learner in a course: status, progress percent (kept by the database from lesson progress), enrolment and completion times.',
    methods: {
      get: 'List enrolments with progress',
      post: 'Enrol a member in a course',
      delete: 'Unenrol',
    },
  },
  {
    table: 'lesson_progress',
    tag: 'Progress and results',
    description: 'Per learner and lesson: status, time spent and completion.',
    methods: { get: 'List lesson progress' },
  },
  {
    table: 'assessment_attempts',
    tag: 'Progress and results',
    description: 'Quiz attempts graded by the server: answers, verdicts, score and feedback.',
    methods: { get: 'List quiz attempts and scores' },
  },
  {
    table: 'courses',
    tag: 'Organization',
    description: "The organization's courses.",
    methods: { get: 'List courses' },
  },
  {
    table: 'boards',
    tag: 'Organization',
    description: "The organization's boards (faculties).",
    methods: { get: 'List boards' },
  },
];

export const rpcOperations: RpcOperation[] = [
  {
    name: 'get_organization_report',
    tag: 'Progress and results',
    summary: 'Progress and results report, one page',
    description:
      'One row per enrolment, newest first, filtered by course, board and enrolment dates; pages by keyset (`after_enrolled_at` and `after_id` of the last row).',
    returns: exportRowSchema.array(),
  },
  {
    name: 'enroll_board',
    tag: 'Enrolments',
    summary: "Enrol a board's learners in a course",
    description:
      'Enrols every active learner of the board in a course distributed to it, all or nothing; returns how many were enrolled.',
    returns: z.number().int().meta({ description: 'Learners enrolled' }),
  },
];

const members = '/functions/v1/org-people/organizations/{org}/members';

export const functionOperations: FunctionOperation[] = [
  {
    path: members,
    method: 'get',
    operationId: 'listMembers',
    tag: 'Users',
    summary: 'Search members, with addresses and roles',
    description:
      'One page of 20 members, searched by name or address and filtered by role and status.',
    query: memberQuerySchema,
    response: { status: 200, schema: memberPageSchema },
  },
  {
    path: members,
    method: 'post',
    operationId: 'addMember',
    tag: 'Users',
    summary: 'Create or invite a user',
    description:
      'Invites a person by mail (`mode: invite`) or creates the account with a temporary password (`mode: password`); an address that already has an account joins with the roles.',
    body: newMemberSchema,
    response: { status: 201, schema: addedMemberSchema },
  },
  {
    path: `${members}/{user}/roles`,
    method: 'put',
    operationId: 'setMemberRoles',
    tag: 'Users',
    summary: "Update a user's roles",
    description: "Replaces the member's roles in the organization (a key cannot name org admins).",
    body: setRolesSchema,
    response: { status: 200, schema: memberAnswerSchema },
  },
  {
    path: `${members}/{user}/deactivate`,
    method: 'post',
    operationId: 'deactivateMember',
    tag: 'Users',
    summary: 'Deactivate a user',
    description:
      'Deactivates every membership of the person in the organization; in their last organization the account can no longer sign in. Their data is kept.',
    response: { status: 200, schema: deactivationSchema },
  },
  {
    path: `${members}/{user}/reactivate`,
    method: 'post',
    operationId: 'reactivateMember',
    tag: 'Users',
    summary: 'Reactivate a user',
    description: 'Makes the memberships active again; the person signs in afresh.',
    response: { status: 200, schema: memberAnswerSchema },
  },
  {
    path: '/functions/v1/org-people/organizations/{org}/enrolments',
    method: 'get',
    operationId: 'listEnrolments',
    tag: 'Enrolments',
    summary: 'Search enrolments, with addresses',
    description: 'One page of 20 enrolments, searched by person or course.',
    query: enrolmentQuerySchema,
    response: { status: 200, schema: enrolmentPageSchema },
  },
  {
    path: '/functions/v1/org-people/organizations/{org}/enrolments/import',
    method: 'post',
    operationId: 'importEnrolments',
    tag: 'Enrolments',
    summary: 'Enrol from a CSV file, all or nothing',
    description:
      'Columns `email`, `course` (slug or id), optional `role` and `board`; at most 5,000 lines and 512 KB. Any wrong line: 422 with a report of every line and nothing written. `?dry_run=1` checks without writing.',
    rawBody: {
      mediaType: 'text/csv',
      description: 'email,course[,role,board] with a header line',
    },
    response: { status: 200, schema: importReportSchema },
  },
  {
    path: '/functions/v1/org-export/organizations/{org}',
    method: 'get',
    operationId: 'exportOrganization',
    tag: 'Export',
    summary: 'Export enrolments with progress and results',
    description:
      'Every enrolment of the organization (filtered by course, board and enrolment dates) with the learner, progress and quiz results, as JSON or as CSV guarded against spreadsheet formulas. Recorded in the audit log.',
    query: exportQuerySchema,
    response: {
      status: 200,
      schema: exportRowSchema.array(),
      mediaTypes: ['application/json', 'text/csv'],
    },
  },
];
