/** The board name rule the database also enforces (create_board, rename_board). */
import { z } from 'zod';

export const boardNameSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Enter a name for the board.')
    .max(200, 'A board name has at most 200 characters.'),
});

export type BoardNameInput = z.infer<typeof boardNameSchema>;

/** The database's duplicate-name refusal, which belongs next to the name field. */
export function isNameTaken(error: Error): boolean {
  return /already exists/.test(error.message);
}
