/**
 * A search snippet from the database: matches sit between U+E000 and U+E001 (decision 0151).
 * Split into text nodes and <mark>s, so nothing in the text is ever read as markup.
 */
export function snippetParts(snippet: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  for (const [index, piece] of snippet.split('\uE000').entries()) {
    if (index === 0) {
      if (piece) parts.push({ text: piece, match: false });
      continue;
    }
    const [match = '', ...rest] = piece.split('\uE001');
    if (match) parts.push({ text: match, match: true });
    const tail = rest.join('');
    if (tail) parts.push({ text: tail, match: false });
  }
  return parts;
}

export function Snippet({ text }: { text: string }) {
  return (
    <p className="text-sm text-muted-foreground">
      {snippetParts(text).map((part, i) =>
        part.match ? (
          <mark
            key={i}
            className="rounded-sm bg-yellow-200 px-0.5 text-foreground dark:bg-yellow-700"
          >
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
