import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { findRoute, routes } from '@common/routes';
import { pageExportName, routeModules, routeSlug } from './page-modules';

describe('page module convention', () => {
  it('names slugs and exports from paths', () => {
    expect(routeSlug('/')).toBe('home');
    expect(routeSlug('/data-encryption')).toBe('data-encryption');
    expect(pageExportName('home')).toBe('HomePage');
    expect(pageExportName('ai-study-coach')).toBe('AiStudyCoachPage');
    expect(pageExportName('le-adapt')).toBe('LeAdaptPage');
  });

  it('maps a doc route to the doc view and its content module', () => {
    expect(routeModules(findRoute('/data-encryption')!)).toEqual([
      'features/site/doc-page/doc-page-view.tsx',
      'features/site/content/docs/data-encryption.ts',
    ]);
  });

  it('finds a source module for every route in the table', () => {
    const missing = routes
      .flatMap(routeModules)
      .filter((module) => !fs.existsSync(path.resolve('src/web', module)));
    expect(missing).toEqual([]);
  });
});
