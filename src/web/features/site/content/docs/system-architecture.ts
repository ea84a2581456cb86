import { brand } from '@common/brand';
import type { DocPage } from '../types';

const diagram = [
  'Browser',
  '  │  HTTPS (TLS 1.3), one origin',
  '  ▼',
  '┌───────────────────────── Cloud platform ─────────────────────────┐',
  '│                                                                  │',
  '│  Web app ─────────── React single-page app, public pages         │',
  '│                      prerendered                                 │',
  '│                                                                  │',
  '│  Gateway (Node)                                                  │',
  '│   ├─ Auth            /auth/v1       accounts, sessions, JWTs     │',
  '│   ├─ REST and RPC    /rest/v1       tables and procedures        │',
  '│   ├─ Storage         /storage/v1    files in private buckets     │',
  '│   └─ Edge functions  /functions/v1  AI coaching, checkout,       │',
  '│                                     GDPR deletion and export     │',
  '│            │                                                     │',
  "│            ▼  one transaction per request, as the caller's role  │",
  '│  Database ────────── PostgreSQL with row-level security          │',
  '│                                                                  │',
  '└──────────────────────────────────────────────────────────────────┘',
].join('\n');

export const docPage: DocPage = {
  path: '/system-architecture',
  heading: 'System Architecture',
  lead: `How ${brand.product} is put together: a web app, edge functions, an auth service, a PostgreSQL database and file storage on one cloud platform, with every data access decided by row-level security.`,
  badges: ['PostgreSQL', 'Row-level security', 'Supabase-compatible APIs'],
  icon: 'server',
  sections: [
    {
      id: 'overview',
      heading: 'Overview',
      blocks: [
        {
          type: 'paragraph',
          text: `${brand.product} is one TypeScript code base. The browser runs a React single-page application; a Node gateway serves that application and four backend services that speak the same protocols as the Supabase platform: auth at \`/auth/v1\`, REST and RPC at \`/rest/v1\`, storage at \`/storage/v1\` and edge functions at \`/functions/v1\`. All of them sit in front of one PostgreSQL database.`,
        },
        {
          type: 'paragraph',
          text: 'Because the web app talks to the backend only through these standard protocols, it uses the ordinary `@supabase/supabase-js` client, and the database, not application code, is the single place that decides who may read or change a row.',
        },
      ],
    },
    {
      id: 'diagram',
      heading: 'Architecture diagram',
      blocks: [
        {
          type: 'code',
          code: diagram,
          language: 'text',
          caption: `${brand.product} components on the cloud platform`,
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Where personal data lives',
          text: 'Personal data is held only in the database and in storage, both in the primary region us-east-1. The web app keeps no personal data beyond the signed-in session. See [Data Hosting](/data-hosting).',
        },
      ],
    },
    {
      id: 'components',
      heading: 'Components',
      blocks: [
        {
          type: 'definitions',
          items: [
            {
              term: 'Web app',
              text: 'A React single-page app built with Vite. Public pages such as this one are prerendered at build time so their text arrives in the first response; the learning app, admin views and the data room load on demand, route by route.',
            },
            {
              term: 'Auth',
              text: 'Accounts, email verification, sign-in with password or [single sign-on](/sso-integration), sessions and two-factor authentication (TOTP). It issues ES256-signed access tokens that expire after 3600 seconds, with refresh-token rotation, and publishes its public keys at `/auth/v1/.well-known/jwks.json`.',
            },
            {
              term: 'REST and RPC',
              text: 'Tables and views of the `public` schema over HTTP, with PostgREST conventions for selecting, filtering and paging, and named database procedures such as `track_usage` called as RPC. See [API Access](/api-access).',
            },
            {
              term: 'Edge functions',
              text: `Server-side handlers for work that must not run in the browser: ${brand.coach} conversations and model routing, checkout and subscription checks, and the GDPR data deletion and export jobs. Each function verifies the caller's token unless it is declared public.`,
            },
            {
              term: 'Database',
              text: 'PostgreSQL holds all structured data, the audit log and the signing keys. Row-level security policies, helper functions (`auth.uid()`, `auth.jwt()`, `public.has_role()`) and the product’s procedures live in ordered, checksummed SQL migrations.',
            },
            {
              term: 'Storage',
              text: 'Files such as course documents and generated lessons, in buckets that are private unless explicitly public. Object metadata is a database table under row-level security, so the same policies govern files and rows.',
            },
          ],
        },
      ],
    },
    {
      id: 'request-flow',
      heading: 'How a request flows',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Load the app',
              text: 'The browser loads the prerendered page and its scripts from the gateway, then fetches the public API URL and anon key from the server at run time. No secret is ever built into the app.',
            },
            {
              title: 'Sign in',
              text: 'The user signs in at `/auth/v1`. The auth service returns a short-lived access token (an ES256 JWT carrying the user id and the role `authenticated`) and a refresh token that is rotated on every use.',
            },
            {
              title: 'Call the API',
              text: 'supabase-js sends the anon key in the `apikey` header and the access token as `Authorization: Bearer …` to `/rest/v1`, `/storage/v1` or `/functions/v1`.',
            },
            {
              title: 'Verify the token',
              text: 'The gateway checks the signature against its published keys and the expiry. Unsigned tokens, unknown keys and expired tokens are refused with 401 before the database is touched.',
            },
            {
              title: 'Run as the caller',
              text: 'The request runs in one database transaction under the role named in the token (`anon`, `authenticated` or `service_role`), with the token claims available to SQL through `auth.uid()` and `auth.jwt()`.',
            },
            {
              title: 'Let the policies decide',
              text: 'Row-level security policies filter what the caller can see and reject writes they may not make. The result is serialised to JSON by PostgreSQL and returned.',
            },
          ],
        },
      ],
    },
    {
      id: 'row-level-security',
      heading: 'Row-level security',
      blocks: [
        {
          type: 'paragraph',
          text: 'Every table that holds personal data has row-level security enabled, an audit trigger and a retention rule. Policies are written once in SQL and apply to every path into the data: the web app, integrations using the [API](/api-access), and edge functions acting for a user.',
        },
        {
          type: 'table',
          caption: 'Database roles',
          columns: ['Role', 'Who uses it', 'Access'],
          rows: [
            [
              '`anon`',
              'Visitors who are not signed in',
              'Only what policies expose publicly, such as the aggregated platform metrics',
            ],
            [
              '`authenticated`',
              'Signed-in learners and staff',
              'Rows the policies allow for their user id and app roles (student, instructor, org admin, compliance officer)',
            ],
            [
              '`service_role`',
              'Trusted servers holding the service role key',
              'Bypasses row-level security; server-to-server only, never in client code',
            ],
          ],
        },
        {
          type: 'code',
          language: 'sql',
          caption: 'Example: a user may read and edit only their own profile',
          code: [
            'alter table public.profiles enable row level security;',
            '',
            'create policy "Users read their own profile"',
            '  on public.profiles for select to authenticated',
            '  using (auth.uid() = id);',
            '',
            'create policy "Users update their own profile"',
            '  on public.profiles for update to authenticated',
            '  using (auth.uid() = id)',
            '  with check (auth.uid() = id);',
          ].join('\n'),
        },
        {
          type: 'paragraph',
          text: 'App roles are stored in `public.user_roles` and checked inside policies with `public.has_role(auth.uid(), role)`, so an instructor’s wider read access is also a policy, not a branch in application code. See [User Roles & Permissions](/user-roles-permissions).',
        },
      ],
    },
    {
      id: 'gdpr-deletion-and-export',
      heading: 'GDPR deletion and export',
      blocks: [
        {
          type: 'paragraph',
          text: 'A person files a data subject request (access, rectification, erasure, portability, restriction or objection) about themself from their Privacy page; the platform records it and tracks it to its deadline. The tools that produce the export file and carry out an erasure across every table and bucket are planned: until they land, an administrator fulfils the request and records the outcome.',
        },
        {
          type: 'steps',
          items: [
            {
              title: 'Record the request',
              text: 'The request is recorded with `create_data_subject_request`, which sets a due date 30 days out, allows one open request of each type and at most five a day, and shows it to the person with its status.',
            },
            {
              title: 'Work the queue',
              text: 'Organization admins (for their members) and platform admins see pending, overdue and completed requests, start them, and complete or reject them; a rejection needs a reason the person can read.',
            },
            {
              title: 'Audit',
              text: 'Requests and their changes are written to the audit log with their purpose and legal basis.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'Your rights and how to exercise them are set out in the [Privacy Policy & GDPR](/privacy-gdpr).',
        },
      ],
    },
    {
      id: 'deployment-modes',
      heading: 'Deployment modes',
      blocks: [
        {
          type: 'table',
          caption: 'How the same code base runs',
          columns: ['Mode', 'Database', 'Suited to'],
          rows: [
            [
              'Embedded (default)',
              'Embedded PostgreSQL (PGlite) in the data directory, one process',
              'A laptop, a pilot, a demo or continuous integration; one node only',
            ],
            [
              'Server',
              'A PostgreSQL server named by `DATABASE_URL`',
              'Production: several stateless gateway processes can run behind a load balancer, since keys, sessions and jobs live in PostgreSQL',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: `The hosted ${brand.product} service runs in server mode in us-east-1. Institutions that need their data in their own region can run the same build on their own PostgreSQL; build and run commands are in [Build Specs](/build-specs).`,
        },
      ],
    },
  ],
};
