import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/api-access',
  heading: 'API Access',
  lead: `Connect your institution's systems to ${brand.product}: a REST API over HTTPS for users, enrolments, progress, assessments and data export, authenticated with an organization API key.`,
  badges: ['REST', 'Organization API keys', '100 requests/s per key'],
  icon: 'code',
  sections: [
    {
      id: 'overview',
      heading: 'Overview',
      blocks: [
        {
          type: 'paragraph',
          text: `The ${brand.product} API is the same API the web app uses. It follows the conventions of PostgREST and Supabase, so any HTTP client works and the \`@supabase/supabase-js\` client works without adaptation. Every operation, with examples in curl and supabase-js, is described in the [API reference](/api/reference), which is generated from the OpenAPI 3.1 document at \`/api/openapi.json\`.`,
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
            ['`/functions/v1`', 'Edge functions: people, enrolment imports and the data export'],
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
          text: "Integrations authenticate with an **organization API key**. Your organization's owner or an org admin creates one under [API keys](/app/org/api-keys) in the app; it is shown once, and the server keeps only a fingerprint. Send it in two headers on every request: `apikey` and `Authorization: Bearer`. The key acts as an administrator of that one organization under row-level security: another organization's rows are invisible to it, and any write with their ids is refused. Revoking it stops it at once.",
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Never put the service role key in client code',
          text: 'The deployment’s service role key can read and change every row and stays for the platform’s own server-to-server administration. Keep it, and your organization keys, on your servers only: never in a browser, a mobile app, a public repository, a support ticket or a log. Revoke a key at once if it may have leaked.',
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'Organization API key',
              text: 'One per system that calls the API, so each can be revoked on its own: its organization’s people, enrolments, progress, results and exports.',
            },
            {
              term: 'Service role key',
              text: 'Administrative access across organizations, not limited by row-level security. Self-hosted: `npm run keys` prints `API_URL`, `ANON_KEY` and `SERVICE_ROLE_KEY`.',
            },
            {
              term: 'Anon key',
              text: 'The public key the web app uses. On its own it sees only what row-level security exposes to visitors; with a user’s access token it sees what that user may see.',
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
          text: 'List the users of your organisation by reading the `profiles` table. The request is a plain `GET` with the key in both headers:',
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
          caption: 'With curl (your organization key is both {key} and {token})',
          code: [
            'curl "$API_URL/rest/v1/profiles?select=*" \\',
            '  -H "apikey: $LYCEUM_API_KEY" \\',
            '  -H "Authorization: Bearer $LYCEUM_API_KEY"',
          ].join('\n'),
        },
        {
          type: 'code',
          language: 'ts',
          caption: 'With supabase-js, in server-side code',
          code: [
            "import { createClient } from '@supabase/supabase-js';",
            '',
            '// API_URL and LYCEUM_API_KEY come from your server’s secret store.',
            'const lyceum = createClient(API_URL, LYCEUM_API_KEY, {',
            '  auth: { persistSession: false, autoRefreshToken: false },',
            '});',
            '',
            "const { data: profiles, error } = await lyceum.from('profiles').select('*');",
            'if (error) throw new Error(`${error.code}: ${error.message}`);',
          ].join('\n'),
        },
        {
          type: 'paragraph',
          text: 'The response is a JSON array with one object per person of your organization, with fields such as `display_name` and `full_name`, and nobody else’s.',
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
            "const { data: report, error } = await lyceum.rpc('get_organization_report', {",
            '  organization_id: ORG_ID,',
            '  page_size: 100,',
            '});',
            'if (error) throw new Error(`${error.code}: ${error.message}`);',
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
          caption:
            'What an integration can do with an organization key ({org} is its organization’s id)',
          columns: ['Operation', 'How'],
          rows: [
            ['List users', '`GET /rest/v1/profiles`; roles in `GET /rest/v1/memberships`'],
            [
              'Create, update and deactivate users',
              '`POST /functions/v1/org-people/organizations/{org}/members` (invite, or a temporary password), `PUT …/members/{user}/roles`, `POST …/members/{user}/deactivate` and `…/reactivate`; a person deactivated in their last organization can no longer sign in',
            ],
            [
              'Enrol and unenrol learners',
              '`POST` and `DELETE /rest/v1/enrollments`, a board with `POST /rest/v1/rpc/enroll_board`, or a CSV file with `POST /functions/v1/org-people/organizations/{org}/enrolments/import`',
            ],
            [
              'Retrieve progress and assessment results',
              '`GET /rest/v1/enrollments`, `lesson_progress` and `assessment_attempts`, filtered by course, learner or date; the report with `POST /rest/v1/rpc/get_organization_report`',
            ],
            [
              'Export data',
              '`GET /functions/v1/org-export/organizations/{org}?format=csv` (or `json`): every enrolment with progress and results, recorded in the audit log',
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
              'The key or token is missing, revoked, expired or not signed by this deployment',
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
