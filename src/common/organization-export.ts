/**
 * The organization export (/functions/v1/org-export, decision 0611): the query it takes and
 * the row it writes, shared by the endpoint (which validates with them) and the OpenAPI
 * document (which is generated from them).
 */
import { z } from 'zod';

const day = z.iso.date({ error: 'Give a date as YYYY-MM-DD.' });

export const exportQuerySchema = z
  .object({
    format: z
      .enum(['json', 'csv'], { error: 'format is json or csv.' })
      .default('json')
      .meta({ description: 'json: an array of rows; csv: a file with a header line' }),
    course_id: z
      .uuid({ error: 'course_id is the id of a course of the organization.' })
      .optional()
      .meta({ description: 'Only this course' }),
    board_id: z
      .uuid({ error: 'board_id is the id of a board of the organization.' })
      .optional()
      .meta({ description: "Only this board's learners in the courses distributed to it" }),
    enrolled_from: day.optional().meta({ description: 'Enrolled on or after this UTC day' }),
    enrolled_to: day.optional().meta({ description: 'Enrolled on or before this UTC day' }),
  })
  .strict();
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** One enrolment with the learner, progress and quiz results (get_organization_report). */
export const exportRowSchema = z.object({
  enrollment_id: z.uuid(),
  user_id: z.uuid(),
  learner: z.string().nullable().meta({ description: 'Full name, display name or address' }),
  email: z.string().nullable(),
  boards: z.string().nullable().meta({ description: "The learner's boards, joined by '; '" }),
  course_id: z.uuid(),
  course: z.string(),
  status: z.enum(['active', 'completed', 'dropped']),
  progress_percent: z.number(),
  enrolled_at: z.string(),
  completed_at: z.string().nullable(),
  last_active_day: z.string().nullable(),
  graded_attempts: z.number().int(),
  average_score: z.number().nullable().meta({ description: 'Mean graded quiz score, percent' }),
});
export type ExportRow = z.infer<typeof exportRowSchema>;

export const exportColumns = Object.keys(exportRowSchema.shape) as (keyof ExportRow)[];

/** Most rows one export returns; past it the answer says to narrow the filter. */
export const EXPORT_MAX_ROWS = 200_000;
