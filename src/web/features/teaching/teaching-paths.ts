/** Addresses of the teaching screens, built from the one route table. */
import { routePath } from '@common/routes';

export const teachingPaths = {
  courses: () => '/app/teaching',
  progress: (courseId: string) => routePath('/app/teaching/courses/:courseId', { courseId }),
  assignments: (courseId: string) =>
    routePath('/app/teaching/courses/:courseId/assignments', { courseId }),
  insights: (courseId: string) =>
    routePath('/app/teaching/courses/:courseId/insights', { courseId }),
  grading: () => '/app/teaching/grading',
  attempt: (attemptId: string) => routePath('/app/teaching/grading/:attemptId', { attemptId }),
};
