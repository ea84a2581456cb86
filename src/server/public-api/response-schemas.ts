/**
 * What the org-people endpoint answers, as zod schemas for the OpenAPI document. Its handlers
 * return the interfaces of src/common/org-people.ts; each schema here is typed against its
 * interface, so the two cannot drift apart without the type check failing.
 */
import { z } from 'zod';
import {
  memberRoles,
  memberStatuses,
  type ImportReport,
  type MemberPage,
  type OrgEnrolment,
  type OrgMember,
  type EnrolmentPage,
} from '../../common/org-people';

const memberRoleRowSchema = z.object({
  role: z.enum(memberRoles),
  boardId: z.uuid().nullable(),
  boardName: z.string().nullable(),
  active: z.boolean(),
});

export const orgMemberSchema = z.object({
  userId: z.uuid(),
  email: z.string(),
  fullName: z.string().nullable(),
  roles: z.array(memberRoleRowSchema),
  status: z.enum(memberStatuses),
  isOwner: z.boolean(),
  lastSignInAt: z.string().nullable(),
}) satisfies z.ZodType<OrgMember>;

export const memberAnswerSchema = z.object({ member: orgMemberSchema });

export const memberPageSchema = z.object({
  members: z.array(orgMemberSchema),
  total: z.number().int(),
}) satisfies z.ZodType<MemberPage>;

export const addedMemberSchema = z.object({
  member: orgMemberSchema,
  outcome: z.enum(['invited', 'created', 'existing']).meta({
    description:
      'invited: a new account was mailed an invitation; created: an account with the password; existing: the address had an account, which joined',
  }),
});

export const deactivationSchema = z.object({
  member: orgMemberSchema,
  suspended: z.boolean().meta({
    description: 'True when this was their last organization: the account cannot sign in',
  }),
});

const orgEnrolmentSchema = z.object({
  id: z.uuid(),
  userId: z.uuid(),
  email: z.string(),
  fullName: z.string().nullable(),
  courseId: z.uuid(),
  courseTitle: z.string(),
  status: z.enum(['active', 'completed', 'dropped']),
  progressPercent: z.number(),
  enrolledAt: z.string(),
}) satisfies z.ZodType<OrgEnrolment>;

export const enrolmentPageSchema = z.object({
  enrolments: z.array(orgEnrolmentSchema),
  total: z.number().int(),
}) satisfies z.ZodType<EnrolmentPage>;

export const importReportSchema = z.object({
  applied: z.boolean(),
  rows: z.number().int(),
  problems: z.array(
    z.object({
      line: z.number().int(),
      email: z.string(),
      course: z.string(),
      problems: z.array(z.string()),
    }),
  ),
  enrolled: z.number().int(),
  reactivated: z.number().int(),
  alreadyEnrolled: z.number().int(),
  membershipsAdded: z.number().int(),
}) satisfies z.ZodType<ImportReport>;
