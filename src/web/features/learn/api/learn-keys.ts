/**
 * Query keys of the learner's screens. Every read is keyed by the user, and lists that depend
 * on the workspace (organization, board or Personal mode) by its key too, so switching
 * workspace or account never shows another's rows.
 */
export const learnKeys = {
  all: ['learn'] as const,
  user: (userId: string) => [...learnKeys.all, userId] as const,
  enrolments: (userId: string, workspace: string) =>
    [...learnKeys.user(userId), 'enrolments', workspace] as const,
  continueLesson: (userId: string, workspace: string) =>
    [...learnKeys.user(userId), 'continue', workspace] as const,
  assignmentsDue: (userId: string, workspace: string) =>
    [...learnKeys.user(userId), 'assignments-due', workspace] as const,
  recentResults: (userId: string, workspace: string) =>
    [...learnKeys.user(userId), 'recent-results', workspace] as const,
  libraries: (userId: string) => [...learnKeys.user(userId), 'library'] as const,
  library: (userId: string, workspace: string, search: string, page: number) =>
    [...learnKeys.libraries(userId), workspace, search, page] as const,
  course: (userId: string, courseId: string) =>
    [...learnKeys.user(userId), 'course', courseId] as const,
  lesson: (userId: string, lessonId: string) =>
    [...learnKeys.user(userId), 'lesson', lessonId] as const,
  lessonFile: (userId: string, path: string) =>
    [...learnKeys.user(userId), 'lesson-file', path] as const,
  quiz: (userId: string, assessmentId: string) =>
    [...learnKeys.user(userId), 'quiz', assessmentId] as const,
  posts: (userId: string, courseId: string) =>
    [...learnKeys.user(userId), 'posts', courseId] as const,
};
