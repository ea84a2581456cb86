/**
 * The import-zone rule of eslint.config.js (decision 0008), run on imports a newcomer might
 * write: each must be refused, and the allowed directions must pass.
 */
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function zoneErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message);
}

describe('import boundaries', () => {
  // Loading the config and the TypeScript resolver takes seconds on a busy machine; do it once.
  beforeAll(() => eslint.calculateConfigForFile('src/web/app/app.tsx'), 60_000);

  it.each([
    [
      'a feature importing another feature',
      'src/web/features/site/pages/new-page.tsx',
      "import { InvestorCard } from '@/features/data-room/investor-card';\nexport const x = InvestorCard;\n",
    ],
    [
      'a feature reaching another feature by a relative path',
      'src/web/features/auth/new-screen.tsx',
      "import { readGrant } from '../data-room/grant-store';\nexport const x = readGrant;\n",
    ],
    [
      'a feature importing the app shell',
      'src/web/features/dashboards/new-panel.tsx',
      "import { SiteHeader } from '@/app/site-header';\nexport const x = SiteHeader;\n",
    ],
    [
      'shared components importing a feature',
      'src/web/components/ui/new-widget.tsx',
      "import { useAuth } from '@/features/auth/auth-store';\nexport const x = useAuth;\n",
    ],
    [
      'common importing web code',
      'src/common/new-module.ts',
      "import { cn } from '../web/lib/utils';\nexport const x = cn;\n",
    ],
    [
      'the server importing web code',
      'src/server/new-module.ts',
      "import { cn } from '../web/lib/utils';\nexport const x = cn;\n",
    ],
    [
      'web code importing the server',
      'src/web/lib/new-module.ts',
      "import { loadConfig } from '../../server/config';\nexport const x = loadConfig;\n",
    ],
  ])('refuses %s', async (_what, filePath, code) => {
    expect(await zoneErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      'the app composing features',
      'src/web/app/new-route.tsx',
      "import { InvestorCard } from '@/features/data-room/investor-card';\nexport const x = InvestorCard;\n",
    ],
    [
      'a feature importing its own modules, shared components and common',
      'src/web/features/data-room/new-part.tsx',
      "import { readGrant } from './grant-store';\nimport { Button } from '@/components/ui/button';\nimport { routes } from '@common/routes';\nexport const x = [readGrant, Button, routes];\n",
    ],
  ])('allows %s', async (_what, filePath, code) => {
    expect(await zoneErrors(filePath, code)).toEqual([]);
  });
});
