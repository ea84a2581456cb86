/** Query keys of the readers, per signed-in user. */
export const readerKeys = {
  all: (userId: string) => ['reader', userId] as const,
  lesson: (userId: string, lessonId: string) =>
    [...readerKeys.all(userId), 'lesson', lessonId] as const,
  highlights: (userId: string, lessonId: string) =>
    [...readerKeys.all(userId), 'highlights', lessonId] as const,
};
