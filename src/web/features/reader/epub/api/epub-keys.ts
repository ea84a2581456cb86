/** Query keys of the ePub reader, per signed-in user. */
export const epubKeys = {
  all: (userId: string) => ['epub-reader', userId] as const,
  book: (userId: string, path: string) => [...epubKeys.all(userId), 'book', path] as const,
  chapterHref: (userId: string, path: string, position: number) =>
    [...epubKeys.all(userId), 'chapter-href', path, position] as const,
};
