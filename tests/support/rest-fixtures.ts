import { expect, vi } from 'vitest';
import type { TestServer } from './test-server';

/**
 * Asks again until the answer is no longer `stale`: the REST schema cache reloads when the
 * `notify pgrst` of a fixture arrives, which under load takes as long as it takes. Bounded
 * only by the test's own timeout; an answer that is neither stale nor wanted is returned for
 * the test to judge.
 */
export async function untilFresh<T>(
  ask: () => PromiseLike<T>,
  stale: (answer: T) => boolean,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const answer = await ask();
      if (stale(answer)) throw new Error('the schema cache has not reloaded yet');
      return answer;
    },
    { timeout: 25_000, interval: 50 },
  );
}

/** Waits until the REST service's schema cache sees a relation a test created. */
export async function waitForRelation(server: TestServer, relation: string): Promise<void> {
  const response = await untilFresh(
    () =>
      fetch(`${server.url}/rest/v1/${relation}?limit=0`, {
        headers: { apikey: server.serviceRoleKey },
      }),
    (answer) => answer.status === 404,
  );
  expect(response.status).toBe(200);
}
