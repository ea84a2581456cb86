/** Query keys of the library feature, per signed-in user. */
export const libraryKeys = {
  all: (userId: string) => ['library', userId] as const,
  search: (userId: string, filters: LibraryFilters) =>
    [...libraryKeys.all(userId), 'search', filters] as const,
  courses: (userId: string) => [...libraryKeys.all(userId), 'courses'] as const,
};

export const lessonKinds = ['markdown', 'pdf', 'epub', 'video'] as const;
export type LessonKind = (typeof lessonKinds)[number];

export interface LibraryFilters {
  query: string;
  courseId: string | null;
  kind: LessonKind | null;
  page: number;
}
