import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': path.resolve('src/web'),
  '@common': path.resolve('src/common'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Two cores: more workers only contend for CPU and memory (each PGlite is ~300-800 MB).
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/global-databases.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/global-e2e.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A browser waits on a server, a database and rendering on a loaded two-core machine:
          // expect.poll's one-second default failed tests that were right, only slower.
          expect: { poll: { timeout: 15_000 } },
          pool: 'forks',
        },
      },
    ],
  },
});
