import { describe, expect, it } from 'vitest';
import { findRoute, isKnownRoute, matchRoute, routePath } from './routes';

const id = '3f1c2a9e-0d7b-4c55-9a51-2b8e6f0c1d23';
const other = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';

describe('route table: app routes with parameters', () => {
  it('matches an app path and reads its parameters', () => {
    expect(matchRoute(`/app/courses/${id}/lessons/${other}`)).toMatchObject({
      route: { path: '/app/courses/:courseId/lessons/:lessonId', kind: 'app' },
      params: { courseId: id, lessonId: other },
    });
    expect(findRoute(`/app/courses/${id}/`)?.path).toBe('/app/courses/:courseId');
    expect(matchRoute('/app')).toMatchObject({ route: { label: 'Dashboard' }, params: {} });
  });

  it.each([
    ['a parameter that is not an id', '/app/courses/cell-biology'],
    ['the pattern itself', '/app/courses/:courseId'],
    ['an extra segment', `/app/courses/${id}/lessons/${other}/more`],
    ['a missing parameter', '/app/courses//lessons/'],
    ['an unknown app page', '/app/nothing-here'],
  ])('knows no page at %s', (_label, path) => {
    expect(isKnownRoute(path)).toBe(false);
  });

  it('fills a route’s parameters and refuses a missing one', () => {
    expect(
      routePath('/app/courses/:courseId/quizzes/:assessmentId', {
        courseId: id,
        assessmentId: other,
      }),
    ).toBe(`/app/courses/${id}/quizzes/${other}`);
    expect(() => routePath('/app/courses/:courseId')).toThrow(/courseId/);
  });
});
