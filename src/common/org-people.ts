/**
 * The organization admin's people and enrolment screens and their endpoint
 * (/functions/v1/org-people, decision 0130) share these shapes: the web forms show the
 * schemas' messages as field errors, the server validates every body with the same schemas.
 */
import { z } from 'zod';

/** Roles as stored; screens label `learner` "Student". */
export const memberRoles = ['learner', 'instructor', 'org_admin', 'compliance_officer'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const memberRoleLabels: Record<MemberRole, string> = {
  learner: 'Student',
  instructor: 'Instructor',
  org_admin: 'Org Admin',
  compliance_officer: 'Compliance Officer',
};

export const roleAssignmentSchema = z.object({
  role: z.enum(memberRoles, { error: 'Choose a role.' }),
  boardId: z.uuid({ error: 'Choose a board of this organization, or none.' }).nullable(),
});
export type RoleAssignment = z.infer<typeof roleAssignmentSchema>;

export const rolesSchema = z
  .array(roleAssignmentSchema)
  .min(1, 'Give the member at least one role.')
  .max(20, 'At most 20 roles.')
  .refine(
    (roles) => new Set(roles.map((r) => `${r.role}:${r.boardId ?? ''}`)).size === roles.length,
    'Each role and board may appear only once.',
  );

const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'At most 254 characters.')
  .pipe(z.email({ error: 'Enter an email address such as name@example.edu.' }));

const fullNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter the person’s name.')
  .max(120, 'At most 120 characters.');

export const newMemberSchema = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('invite'),
    email: emailSchema,
    fullName: fullNameSchema,
    roles: rolesSchema,
  }),
  z.object({
    mode: z.literal('password'),
    email: emailSchema,
    fullName: fullNameSchema,
    roles: rolesSchema,
    password: z.string().min(8, 'At least 8 characters.').max(128, 'At most 128 characters.'),
  }),
]);
export type NewMember = z.infer<typeof newMemberSchema>;

export const setRolesSchema = z.object({ roles: rolesSchema });

export const memberStatuses = ['active', 'deactivated', 'invited'] as const;
export type MemberStatus = (typeof memberStatuses)[number];

export const MEMBERS_PAGE_SIZE = 20;
export const ENROLMENTS_PAGE_SIZE = 20;

const pageSchema = z.coerce.number().int().min(1).max(100_000).catch(1);
/** What a search box may hold; the forms show its message. */
export const searchTextSchema = z.string().trim().max(100, 'Search for at most 100 characters.');

export const memberQuerySchema = z.object({
  q: searchTextSchema.catch(''),
  role: z.enum(memberRoles).or(z.literal('')).catch(''),
  status: z.enum(memberStatuses).or(z.literal('')).catch(''),
  page: pageSchema,
});
export type MemberQuery = z.infer<typeof memberQuerySchema>;

export const enrolmentQuerySchema = z.object({
  q: searchTextSchema.catch(''),
  courseId: z.uuid().or(z.literal('')).catch(''),
  page: pageSchema,
});
export type EnrolmentQuery = z.infer<typeof enrolmentQuerySchema>;

export interface MemberRoleRow {
  role: MemberRole;
  boardId: string | null;
  boardName: string | null;
  active: boolean;
}

export interface OrgMember {
  userId: string;
  email: string;
  fullName: string | null;
  roles: MemberRoleRow[];
  status: MemberStatus;
  isOwner: boolean;
  lastSignInAt: string | null;
}

export interface MemberPage {
  members: OrgMember[];
  total: number;
}

export interface OrgEnrolment {
  id: string;
  userId: string;
  email: string;
  fullName: string | null;
  courseId: string;
  courseTitle: string;
  status: 'active' | 'completed' | 'dropped';
  progressPercent: number;
  enrolledAt: string;
}

export interface EnrolmentPage {
  enrolments: OrgEnrolment[];
  total: number;
}

/** The CSV import's limits: a file past either is refused whole, with a message saying so. */
export const IMPORT_MAX_BYTES = 512 * 1024;
export const IMPORT_MAX_ROWS = 5000;
export const importColumns = ['email', 'course', 'role', 'board'] as const;

export interface ImportRowProblem {
  /** The line of the file (1 is the header). */
  line: number;
  /** What the line said, as far as it could be read. */
  email: string;
  course: string;
  problems: string[];
}

export interface ImportReport {
  /** True when the enrolments were written; false for a check, or when any line was wrong. */
  applied: boolean;
  /** Data lines read (blank lines are not counted). */
  rows: number;
  problems: ImportRowProblem[];
  /** What the import does (or did): new enrolments, dropped ones made active again, … */
  enrolled: number;
  reactivated: number;
  alreadyEnrolled: number;
  membershipsAdded: number;
}
