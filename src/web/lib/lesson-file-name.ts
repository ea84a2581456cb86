/**
 * The name a person gave a lesson file, from its object path in the course-files bucket
 * (`<course>/lessons/<uuid>-<name>`, written by the course editor): the unique prefix that
 * keeps uploads apart means nothing to a reader, so screens and downloads drop it.
 */
export function lessonFileName(path: string): string {
  const last = path.split('/').pop() ?? path;
  return last.replace(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/, '') || last;
}
