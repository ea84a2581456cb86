/** Addresses of the learner's screens, built from the one route table. */
import { routePath } from '@common/routes';

export const learnPaths = {
  dashboard: () => '/app',
  library: () => '/app/courses',
  course: (courseId: string) => routePath('/app/courses/:courseId', { courseId }),
  lesson: (courseId: string, lessonId: string) =>
    routePath('/app/courses/:courseId/lessons/:lessonId', { courseId, lessonId }),
  /** The in-app reader of a lesson's PDF (or ePub) file. */
  reader: (courseId: string, lessonId: string) =>
    routePath('/app/courses/:courseId/lessons/:lessonId/read', { courseId, lessonId }),
  quiz: (courseId: string, assessmentId: string) =>
    routePath('/app/courses/:courseId/quizzes/:assessmentId', { courseId, assessmentId }),
  discussion: (courseId: string) => routePath('/app/courses/:courseId/discussion', { courseId }),
  live: (courseId: string) => routePath('/app/courses/:courseId/live', { courseId }),
  /** The course editor's screen for the course (for those who teach it). */
  editCourse: (courseId: string) => routePath('/app/course-editor/:courseId', { courseId }),
};
