/** Addresses of the course editor's screens, built from the one route table. */
import { routePath } from '@common/routes';

export const editorPaths = {
  courses: () => '/app/course-editor',
  newCourse: () => '/app/course-editor/new',
  course: (courseId: string) => routePath('/app/course-editor/:courseId', { courseId }),
  module: (courseId: string, moduleId: string) =>
    routePath('/app/course-editor/:courseId/modules/:moduleId', { courseId, moduleId }),
  newLesson: (courseId: string, moduleId: string) =>
    routePath('/app/course-editor/:courseId/modules/:moduleId/lessons/new', {
      courseId,
      moduleId,
    }),
  lesson: (courseId: string, lessonId: string) =>
    routePath('/app/course-editor/:courseId/lessons/:lessonId', { courseId, lessonId }),
  newQuestion: (courseId: string, moduleId: string) =>
    routePath('/app/course-editor/:courseId/modules/:moduleId/questions/new', {
      courseId,
      moduleId,
    }),
  question: (courseId: string, questionId: string) =>
    routePath('/app/course-editor/:courseId/questions/:questionId', { courseId, questionId }),
  newQuiz: (courseId: string, moduleId: string) =>
    routePath('/app/course-editor/:courseId/modules/:moduleId/quizzes/new', {
      courseId,
      moduleId,
    }),
  quiz: (courseId: string, assessmentId: string) =>
    routePath('/app/course-editor/:courseId/quizzes/:assessmentId', { courseId, assessmentId }),
  /** The learner's view of the course, to see the result as a student would. */
  learnerCourse: (courseId: string) => routePath('/app/courses/:courseId', { courseId }),
};
