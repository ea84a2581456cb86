import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import type { Database } from '../db/types';
import { createLogger } from '../logger';
import { seedDemoOnFirstStart } from './demo-seed';

describe('DEMO_SEED', () => {
  const demoSeed = (env: Record<string, string>) => loadConfig({}, env).demoSeed;

  it('is on by default in development only', () => {
    expect(demoSeed({ NODE_ENV: 'development' })).toBe(true);
    expect(demoSeed({ NODE_ENV: 'test' })).toBe(false);
    expect(demoSeed({ NODE_ENV: 'test', DEMO_SEED: 'true' })).toBe(true);
    expect(demoSeed({ NODE_ENV: 'development', DEMO_SEED: 'false' })).toBe(false);
  });

  it('never seeds in production, whatever DEMO_SEED says', () => {
    expect(demoSeed({ NODE_ENV: 'production', DEMO_SEED: 'true' })).toBe(false);
  });

  it('refuses values that are not a boolean', () => {
    expect(() => loadConfig({}, { DEMO_SEED: 'yes please' })).toThrow(/DEMO_SEED/);
  });

  it('leaves a PostgreSQL database alone at start-up (embedded mode only)', async () => {
    const config = loadConfig({}, { NODE_ENV: 'development' });
    const untouched = new Proxy({ kind: 'postgres' } as Database, {
      get(target, property) {
        if (property === 'kind') return target.kind;
        throw new Error(`the seed touched the database (${String(property)})`);
      },
    });
    expect(await seedDemoOnFirstStart(config, untouched, createLogger('silent'))).toEqual({
      seeded: false,
      courses: [],
    });
  });
});
