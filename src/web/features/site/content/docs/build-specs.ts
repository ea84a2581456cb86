import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/build-specs',
  heading: 'Build Specs',
  lead: `The technology ${brand.product} is built with, how it is built, tested and run in each environment, and the performance budgets every release must meet.`,
  badges: ['TypeScript', 'React', 'Node.js', 'PostgreSQL'],
  icon: 'code',
  sections: [
    {
      id: 'technology-stack',
      heading: 'Technology stack',
      blocks: [
        {
          type: 'paragraph',
          text: 'One TypeScript code base in strict mode holds the web app, the backend and the code both share (the route table, brand strings and validation schemas), so a change to a shared contract is checked on both sides by the compiler.',
        },
        {
          type: 'table',
          caption: 'Technology by layer',
          columns: ['Layer', 'Technology', 'Purpose'],
          rows: [
            [
              'Language',
              'TypeScript (strict), ES modules',
              'One language and type system across browser and server',
            ],
            [
              'User interface',
              'React, React Router, TanStack Query',
              'Component UI, one route table, cached server data',
            ],
            [
              'Styling',
              'Tailwind CSS, Radix primitives, class-variance-authority',
              'Accessible components with consistent variants',
            ],
            ['Build tool', 'Vite', 'Fast development server and route-split production bundles'],
            [
              'Server',
              'Node.js 20 with Hono',
              'The gateway serving the app and the auth, REST, storage and functions services',
            ],
            [
              'Database',
              'PostgreSQL; embedded PGlite by default',
              'Data, row-level security, procedures, audit log and job queue',
            ],
            [
              'Client SDK',
              '`@supabase/supabase-js`',
              'Standard client for auth, REST, storage and functions',
            ],
            [
              'Security libraries',
              'jose (JWT/JWKS), argon2id, otpauth (TOTP), zod',
              'Token signing and checks, password hashing, 2FA, input validation',
            ],
            [
              'Testing',
              'Vitest, Playwright with Chromium, axe-core',
              'Unit, integration and browser tests with accessibility checks',
            ],
          ],
        },
      ],
    },
    {
      id: 'web-app',
      heading: 'Responsive web app',
      blocks: [
        {
          type: 'paragraph',
          text: `${brand.product} runs in the browser as one responsive web application for phones, tablets and desktops, tested at widths from a 390 px phone to a 1280 px desktop, with nothing to install from an app store. It installs as an app from the browser, and pages already visited open offline. A learner can keep a course's lessons, their due flashcards and their notes on the device: lessons open, cards can be reviewed and notes written, edited or deleted offline, and those changes are sent in order once the connection returns. A note changed on another device meanwhile is never overwritten: both versions are kept and the learner is told.`,
        },
        {
          type: 'list',
          items: [
            '**Prerendered public pages.** Documentation and marketing pages are rendered to HTML at build time, so the title, description, canonical link and main text are in the first response, before any JavaScript runs.',
            '**Split by route.** Each page loads only its own code; the learning app, the dashboards and the data room are separate chunks loaded on demand.',
            '**Long-lived caching.** Built assets carry a content hash in their file name and are served with long cache lifetimes; responses are compressed.',
            '**Accessible by default.** Every route is tested with axe-core at phone and desktop widths, and must have no serious or critical violations.',
          ],
        },
      ],
    },
    {
      id: 'environments',
      heading: 'Environments',
      blocks: [
        {
          type: 'table',
          caption: 'Environments and how they run',
          columns: ['Environment', 'Command', 'Database', 'Notes'],
          rows: [
            [
              'Development',
              '`npm run dev`',
              'Embedded PGlite in `./.data`',
              'Hot reload for the web app; the server restarts when its code changes',
            ],
            [
              'Local or pilot',
              '`npm start`',
              'Embedded PGlite in `DATA_DIR`',
              'Builds the web app and serves it with the API on port 3000 (`PORT` to change); one node only',
            ],
            [
              'Production',
              '`npm start` with `DATABASE_URL` and `NODE_ENV=production`',
              'PostgreSQL server',
              'Stateless gateway processes, several behind a load balancer if needed',
            ],
            [
              'Continuous integration',
              '`.ci/run`',
              'PGlite and a throwaway PostgreSQL cluster',
              'Provisions Chromium and PostgreSQL if missing, runs `npm ci` and `npm test`',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: 'Every setting is an environment variable, read and validated in one module when the server starts. An invalid value stops the start with a list of every problem, rather than failing later at run time. Database migrations are applied in order at start-up and checksummed: a migration that was changed after it was applied stops the start with a clear message.',
        },
      ],
    },
    {
      id: 'build-and-run',
      heading: 'Build and run',
      blocks: [
        {
          type: 'code',
          language: 'bash',
          caption: 'From a fresh checkout (Node.js 20.19 or later)',
          code: [
            'npm install && npm start   # build the web app, serve it on http://localhost:3000',
            'npm run dev                # development with hot reload',
            'npm run build              # production build of the web app only',
            'npm run keys               # print API_URL, ANON_KEY and SERVICE_ROLE_KEY',
            '',
            '# Production: point the same build at PostgreSQL',
            'DATABASE_URL=postgres://app@db.internal:5432/learning NODE_ENV=production npm start',
          ].join('\n'),
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Embedded mode is for one node',
          text: 'The embedded database is owned by a single process and is meant for laptops, pilots, demos and CI. Run production on PostgreSQL, where backups and replication are PostgreSQL’s own.',
        },
      ],
    },
    {
      id: 'tests-and-checks',
      heading: 'Tests and quality checks',
      blocks: [
        {
          type: 'table',
          caption: 'Commands run locally and in CI',
          columns: ['Command', 'What it checks'],
          rows: [
            ['`npm run typecheck`', 'TypeScript in strict mode across web, server and tests'],
            ['`npm run lint`', 'ESLint with typescript-eslint and the React hooks rules'],
            ['`npm run format:check`', 'Prettier formatting'],
            ['`npm run test:unit`', 'Unit tests next to the code they test'],
            [
              '`npm run test:integration`',
              'The gateway driven through supabase-js, once on PGlite and once on PostgreSQL',
            ],
            [
              '`npm run test:e2e`',
              'The built app in headless Chromium: every route, navigation behaviour and axe accessibility checks',
            ],
            ['`npm test`', 'Builds the app, then runs all of the above test suites'],
            ['`npm run check`', 'Typecheck, lint, format check and all tests: the same gate as CI'],
          ],
        },
        {
          type: 'paragraph',
          text: 'Tests never call the internet: any outbound call, such as an identity provider or a webhook receiver, goes to a local server the test starts itself. Security-related checks are described in [Developer Build & Security](/developer-build-security).',
        },
      ],
    },
    {
      id: 'performance-budgets',
      heading: 'Performance budgets',
      blocks: [
        {
          type: 'table',
          caption: 'Budgets every release must meet',
          columns: ['Budget', 'Target', 'How it is measured'],
          rows: [
            [
              'JavaScript before first render of a documentation page',
              'At most 120 KB (gzip)',
              'Page-weight report in `npm run bench`, following the built page’s module graph',
            ],
            [
              'Lighthouse performance score, mobile settings',
              'At least 95 for the home page and [Data Encryption](/data-encryption)',
              '`npm run bench` with the Lighthouse package against headless Chromium',
            ],
            [
              'Public page content',
              'Title, description, canonical link and main text in the first HTML response',
              'Browser tests and prerendered output',
            ],
            [
              'API rate limit',
              '100 requests per second per API key',
              'Enforced by the gateway; see [API Access](/api-access)',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: 'Benchmarks run with `npm run bench` and are never part of `npm test`, so they can take the time an honest measurement needs.',
        },
      ],
    },
  ],
};
