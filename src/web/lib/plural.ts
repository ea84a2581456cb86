/** "1 card", "3 cards": a count with the word that agrees with it. */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
