import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/api-access',
  heading: 'API Access',
  lead: `Connect your institution's systems to ${brand.product}: a REST API over HTTPS for users, enrolments, progress, assessments and data export, authenticated with the service role key.`,
  badges: ['REST', 'Server-to-server', '100 requests/s per key'],
  icon: 'code',
  sections: [
    {
      id: 'overview',
      heading: 'Overview',
      blocks: [
        {
          type: 'paragraph',
          text: `The ${brand.product} API is the same API the web app uses. It follows the conventions of PostgREST and Supabase, so any HTTP client works and the \`@supabase/supabase-js\` client works without adaptation.`,
        },
        {
          type: 'table',
          caption: 'API services, relative to your deployment’s base URL',
          columns: ['Base path', 'Service'],
          rows: [
            [
              '`/rest/v1`',
              'Tables and views (`/rest/v1/{table}`) and database procedures (`/rest/v1/rpc/{function}`)',
            ],
            [
              '`/auth/v1`',
              'Sign-in, tokens and user administration; public keys at `/auth/v1/.well-known/jwks.json`',
            ],
            ['`/storage/v1`', 'Files in storage buckets'],
            ['`/functions/v1`', 'Edge functions, including GDPR data export'],
          ],
        },
      ],
    },
    {
      id: 'authentication',
      heading: 'Keys and authentication',
      blocks: [
        {
          type: 'paragraph',
          text: 'Integrations authenticate with the **service role key**, an administrative key for server-to-server use. Send it in two headers on every request: `apikey` and `Authorization: Bearer`. Requests made with it run as the `service_role` database role, which is not limited by row-level security.',
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Never put the service role key in client code',
          text: 'The service role key can read and change every row. Keep it on your servers only: never in a browser, a mobile app, a public repository, a support ticket or a log. Store it in your secret manager or environment, and ask for a rotation at once if it may have leaked.',
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'Service role key',
              text: 'Administrative access for trusted back-end integrations. Issued to the organisation on request for the hosted service.',
            },
            {
              term: 'Anon key',
              text: 'The public key the web app uses. On its own it sees only what row-level security exposes to visitors; with a user’s access token it sees what that user may see.',
            },
            {
              term: 'Self-hosted deployments',
              text: 'Run `npm run keys` on the server to print `API_URL`, `ANON_KEY` and `SERVICE_ROLE_KEY` for the database the deployment uses. Setting `SERVICE_ROLE_KEY` or `ANON_KEY` in the environment overrides the stored keys.',
            },
          ],
        },
      ],
    },
    {
      id: 'first-request',
      heading: 'Your first request',
      blocks: [
        {
          type: 'paragraph',
          text: 'List the users of your organisation by reading the `profiles` table with all columns selected. The request is a plain `GET` with the key in both headers:',
        },
        {
          type: 'code',
          language: 'http',
          caption: 'The request',
          code: [
            'GET /rest/v1/profiles?select=*',
            'apikey: {key}',
            'Authorization: Bearer {token}',
          ].join('\n'),
        },
        {
          type: 'code',
          language: 'bash',
          caption: 'With curl (the key is both {key} and {token} for server-to-server calls)',
          code: [
            'curl "$API_URL/rest/v1/profiles?select=*" \\',
            '  -H "apikey: $SERVICE_ROLE_KEY" \\',
            '  -H "Authorization: Bearer $SERVICE_ROLE_KEY"',
          ].join('\n'),
        },
        {
          type: 'code',
          language: 'ts',
          caption: 'With supabase-js, in server-side code',
          code: [
            "import { createClient } from '@supabase/supabase-js';",
            '',
            '// API_URL and SERVICE_ROLE_KEY come from your server’s secret store.',
            'const admin = createClient(API_URL, SERVICE_ROLE_KEY, {',
            '  auth: { persistSession: false, autoRefreshToken: false },',
            '});',
            '',
            "const { data: profiles, error } = await admin.from('profiles').select('*');",
            'if (error) throw new Error(`${error.code}: ${error.message}`);',
          ].join('\n'),
        },
        {
          type: 'paragraph',
          text: 'The response is a JSON array with one object per user, including fields such as `display_name` and `full_name`. The same request made with the anon key returns only what row-level security allows, which for a visitor is nothing.',
        },
      ],
    },
    {
      id: 'filtering-and-pagination',
      heading: 'Filtering, ordering and pagination',
      blocks: [
        {
          type: 'paragraph',
          text: 'Query parameters follow PostgREST: `select` chooses columns, each other parameter named after a column is a filter written `column=operator.value`, and `order`, `limit` and `offset` shape the result.',
        },
        {
          type: 'table',
          caption: 'Filter operators',
          columns: ['Operator', 'Meaning', 'Example'],
          rows: [
            ['`eq`, `neq`', 'Equal, not equal', '`status=eq.active`'],
            ['`gt`, `gte`, `lt`, `lte`', 'Greater or less than', '`created_at=gte.2025-09-01`'],
            [
              '`like`, `ilike`',
              'Pattern match, case-sensitive or not (`*` is the wildcard)',
              '`full_name=ilike.*smith*`',
            ],
            ['`is`', 'Is null, true or false', '`deleted_at=is.null`'],
            ['`in`', 'One of a list', '`role=in.(student,instructor)`'],
            ['`cs`, `cd`', 'Array or JSON contains, is contained by', '`tags=cs.{biology}`'],
            ['`not.`', 'Negates any operator', '`status=not.eq.archived`'],
            [
              '`or=(…)`, `and=(…)`',
              'Combine conditions',
              '`or=(status.eq.active,status.eq.invited)`',
            ],
          ],
        },
        {
          type: 'list',
          items: [
            '**Ordering:** `order=full_name.asc,created_at.desc`, with `nullsfirst` or `nullslast` when needed.',
            '**Pages:** `limit=50&offset=100`, or a `Range: 100-149` header.',
            '**Totals:** send `Prefer: count=exact` and read the total from the `Content-Range` response header, for example `100-149/1200`.',
            '**Related rows:** embed a table linked by a foreign key in the select, for example `select=*,courses(*)`.',
            '**Exactly one row:** `Accept: application/vnd.pgrst.object+json` returns an object instead of an array, and `406` when the filter does not match exactly one row.',
          ],
        },
      ],
    },
    {
      id: 'writes-and-rpc',
      heading: 'Writes and procedures',
      blocks: [
        {
          type: 'list',
          items: [
            '**Insert:** `POST /rest/v1/{table}` with a JSON object or array; returns `201`.',
            '**Update:** `PATCH /rest/v1/{table}?{filters}` with the changed fields.',
            '**Delete:** `DELETE /rest/v1/{table}?{filters}`. Always send a filter.',
            '**Return the rows:** add `Prefer: return=representation` to get the written rows back; `return=minimal` answers `204` with no body.',
            '**Procedures:** `POST /rest/v1/rpc/{function}` with the arguments as a JSON object of named values.',
          ],
        },
        {
          type: 'code',
          language: 'ts',
          caption: 'Calling a procedure with supabase-js',
          code: [
            "const { data: metrics, error } = await admin.rpc('get_public_platform_metrics');",
            '// metrics.totals.users, metrics.totals.courses, metrics.generated_at …',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'supported-operations',
      heading: 'Supported operations',
      blocks: [
        {
          type: 'table',
          caption: 'What an integration can do with the service role key',
          columns: ['Operation', 'How'],
          rows: [
            ['List users', '`GET /rest/v1/profiles?select=*`'],
            [
              'Create, update and deactivate users',
              'The user administration endpoints under `/auth/v1/admin/users` (`auth.admin.createUser`, `updateUserById` in supabase-js); a deactivated user can no longer sign in',
            ],
            ['Enrol and unenrol learners', 'Insert or delete enrolment rows through `/rest/v1`'],
            [
              'Retrieve progress and assessment results',
              '`GET` requests on the progress and assessment resources, filtered by course, learner or date',
            ],
            [
              'Export data',
              'The data export edge function under `/functions/v1`, which produces a machine-readable export and records it in the audit log',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: 'Every change to personal data made through the API is recorded in the audit log, exactly like a change made in the app. Roles are assigned as described in [User Roles & Permissions](/user-roles-permissions); single sign-on users are created on first sign-in as described in [SSO Integration](/sso-integration).',
        },
      ],
    },
    {
      id: 'rate-limits',
      heading: 'Rate limits',
      blocks: [
        {
          type: 'paragraph',
          text: 'Each API key may make up to **100 requests per second**. Above that the API answers `429 Too Many Requests` with a `Retry-After` header giving the number of seconds to wait. The request was not processed, so it is safe to retry after the wait.',
        },
        {
          type: 'code',
          language: 'ts',
          caption: 'Respecting Retry-After',
          code: [
            'async function fetchWithRetry(url: string, init: RequestInit, attempts = 5): Promise<Response> {',
            '  for (let attempt = 1; ; attempt++) {',
            '    const response = await fetch(url, init);',
            '    if (response.status !== 429 || attempt === attempts) return response;',
            "    const seconds = Number(response.headers.get('Retry-After') ?? '1');",
            '    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));',
            '  }',
            '}',
          ].join('\n'),
        },
        {
          type: 'paragraph',
          text: 'Bulk jobs such as a nightly roster sync should batch rows into array inserts and page through reads, rather than send one request per row. Monthly usage quotas are separate; see [Data & Quotas](/data-quotas).',
        },
      ],
    },
    {
      id: 'errors',
      heading: 'Errors',
      blocks: [
        {
          type: 'paragraph',
          text: 'Errors from `/rest/v1` have an HTTP status and a JSON body with four fields: `code` (a PostgreSQL SQLSTATE or a `PGRST` code), `message`, `details` and `hint`. The last two may be `null`.',
        },
        {
          type: 'code',
          language: 'json',
          caption: 'An error body',
          code: [
            '{',
            '  "code": "PGRST205",',
            '  "message": "Could not find the table \'public.profile\' in the schema cache",',
            '  "details": null,',
            '  "hint": "Perhaps you meant the table \'public.profiles\'"',
            '}',
          ].join('\n'),
        },
        {
          type: 'table',
          caption: 'Common errors',
          columns: ['Status', 'Code', 'Meaning'],
          rows: [
            [
              '400',
              '`PGRST100`',
              'The query string could not be parsed: unknown operator or malformed filter',
            ],
            ['400', '`42703`', 'A column in the request does not exist'],
            [
              '401',
              '`PGRST301`, `PGRST302`',
              'The key or token is missing, expired or not signed by this deployment',
            ],
            ['403', '`42501`', 'Row-level security does not allow this change for the caller'],
            ['404', '`PGRST205`, `PGRST202`', 'Unknown table or unknown procedure'],
            [
              '406',
              '`PGRST116`',
              'A single object was requested but the filter did not match exactly one row',
            ],
            [
              '409',
              '`23505`, `23503`',
              'Duplicate key, or a reference to a row that does not exist',
            ],
            ['429', '—', 'Rate limit exceeded; wait for the seconds in `Retry-After`'],
          ],
        },
      ],
    },
  ],
};
