/** Tags as typed ("biology, exam 1") to the stored list: trimmed, lower case, unique, ≤ 20 of ≤ 40 characters. */
export function parseTags(text: string): string[] {
  const tags = text
    .split(',')
    .map((tag) => tag.trim().toLowerCase().slice(0, 40))
    .filter(Boolean);
  return [...new Set(tags)].slice(0, 20);
}
