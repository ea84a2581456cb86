/**
 * Query keys of the course editor. Every read is keyed by the user, so another account in the
 * same tab never sees these rows; a course's content sits under the course, so one
 * invalidation refreshes everything shown about it.
 */
export const editorKeys = {
  all: ['course-editor'] as const,
  user: (userId: string) => [...editorKeys.all, userId] as const,
  lists: (userId: string) => [...editorKeys.user(userId), 'taught'] as const,
  list: (userId: string, workspace: string, search: string, page: number) =>
    [...editorKeys.lists(userId), workspace, search, page] as const,
  course: (userId: string, courseId: string) =>
    [...editorKeys.user(userId), 'course', courseId] as const,
  outline: (userId: string, courseId: string) =>
    [...editorKeys.course(userId, courseId), 'outline'] as const,
  lesson: (userId: string, courseId: string, lessonId: string) =>
    [...editorKeys.course(userId, courseId), 'lesson', lessonId] as const,
  bank: (userId: string, courseId: string, moduleId: string) =>
    [...editorKeys.course(userId, courseId), 'bank', moduleId] as const,
  question: (userId: string, courseId: string, questionId: string) =>
    [...editorKeys.course(userId, courseId), 'question', questionId] as const,
  quiz: (userId: string, courseId: string, assessmentId: string) =>
    [...editorKeys.course(userId, courseId), 'quiz', assessmentId] as const,
};
