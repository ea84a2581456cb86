/**
 * A zod failure in one sentence a person or a client can act on, one clause per issue:
 * `email: expected string, received number`. The server's error bodies and the web app's
 * form messages both use it, so a failure reads the same wherever it is shown.
 */
import type { z } from 'zod';

export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
      return `${where}${issue.message.replace(/^Invalid input: /, '')}`;
    })
    .join('; ');
}
