import { describe, expect, it } from 'vitest';
import { clusterConfigProblem, restartDelayMs } from './cluster';

describe('cluster mode', () => {
  it('needs PostgreSQL for more than one worker', () => {
    expect(clusterConfigProblem({ workers: 1, databaseUrl: undefined })).toBeUndefined();
    expect(
      clusterConfigProblem({ workers: 2, databaseUrl: 'postgres://db/lyceum' }),
    ).toBeUndefined();
    expect(clusterConfigProblem({ workers: 3, databaseUrl: undefined })).toMatch(
      /^WORKERS=3 needs PostgreSQL/,
    );
  });

  it('restarts a crashed worker at once, backing off to 30 s while it keeps crashing', () => {
    expect([1, 2, 3, 4, 7, 20].map(restartDelayMs)).toEqual([0, 1000, 2000, 4000, 30_000, 30_000]);
  });
});
