import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/developer-build-security',
  heading: 'Developer Build & Security',
  lead: `The secure development practices behind every ${brand.product} release: how secrets are kept out of code, how data access is enforced, and the checks a change must pass before it ships.`,
  badges: ['Secure by default', 'Row-level security', 'CI-gated'],
  icon: 'shield',
  sections: [
    {
      id: 'principles',
      heading: 'Principles',
      blocks: [
        {
          type: 'cards',
          items: [
            {
              title: 'Decide access in one place',
              icon: 'database',
              text: 'Row-level security in PostgreSQL decides who may read or change each row. Application code does not repeat permission checks that could drift apart.',
            },
            {
              title: 'No secrets in code',
              icon: 'key',
              text: 'Keys and passwords come from the environment or the database, never from source files, build output or the browser.',
            },
            {
              title: 'Verify every token',
              icon: 'lock',
              text: 'Every API request and every non-public edge function checks the caller’s signed token before doing any work.',
            },
            {
              title: 'Automated gates',
              icon: 'check',
              text: 'Type checks, lint, tests and accessibility checks run on every change, locally and in CI, with the same commands.',
            },
          ],
        },
      ],
    },
    {
      id: 'secrets-and-configuration',
      heading: 'Secrets and configuration',
      blocks: [
        {
          type: 'list',
          items: [
            '**One configuration module.** The server reads environment variables in exactly one module, which validates them at start-up; a lint rule forbids reading the environment anywhere else.',
            '**Keys from the environment or the database.** The token signing key, the anon key and the service role key are generated on first start and stored in the database, or supplied as `JWT_SIGNING_KEY`, `ANON_KEY` and `SERVICE_ROLE_KEY`.',
            '**No build-time secrets.** The web app receives only the public API URL and the anon key, from the server at load time. Nothing secret is ever compiled into JavaScript that a browser downloads.',
            '**The service role key stays on servers.** It bypasses row-level security, so it is used only for server-to-server calls and never appears in client code. See [API Access](/api-access).',
            '**Logs without secrets.** Request logs record method, path, status, role and duration, never tokens, keys, passwords or request bodies.',
          ],
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'If a key leaks',
          text: `Report it at once to [${brand.securityEmail}](mailto:${brand.securityEmail}). A leaked service role key is treated as a security incident: the key is replaced and access made with it is reviewed in the audit log.`,
        },
      ],
    },
    {
      id: 'data-access',
      heading: 'Data access and SQL',
      blocks: [
        {
          type: 'list',
          items: [
            '**Row-level security on every table with personal data,** together with an audit trigger and a retention rule. A table holding personal data without all three is not accepted in review.',
            '**Parameterised SQL only.** Every value reaches PostgreSQL as a bound parameter. Table and column names from a request are checked against the database catalog and quoted; user input is never concatenated into SQL.',
            '**Requests run as the caller.** Each request is one transaction under the role from its token, with the token claims available to policies, so a bug in a handler cannot widen what a user may see.',
            '**Schema changes as migrations.** The schema, policies and procedures live in ordered SQL files that are checksummed when applied; an edited migration stops the server from starting.',
          ],
        },
        {
          type: 'code',
          language: 'ts',
          caption: 'Values are bound, never interpolated',
          code: [
            '// Wrong: a name containing a quote changes the meaning of the query.',
            "// db.query(`select * from profiles where full_name = '${name}'`);",
            '',
            '// Right: the value travels separately from the SQL text.',
            "await db.query('select id, full_name from profiles where full_name = $1', [name]);",
          ].join('\n'),
        },
      ],
    },
    {
      id: 'authentication',
      heading: 'Authentication and tokens',
      blocks: [
        {
          type: 'table',
          caption: 'Authentication controls',
          columns: ['Control', 'How it works'],
          rows: [
            [
              'Signed access tokens',
              'ES256 JWTs that expire after 3600 seconds, with refresh-token rotation; public keys at `/auth/v1/.well-known/jwks.json`',
            ],
            [
              'Strict verification',
              'Only ES256 or RS256 keys from the deployment’s own key set; unsigned (`none`) tokens are refused, and HS256 only when an operator explicitly configures a shared secret',
            ],
            [
              'Password storage',
              'argon2id hashes; passwords are never stored or logged in readable form',
            ],
            ['Password changes', 'Require re-authentication before the new password is accepted'],
            [
              'Email verification',
              'Enabled: a new account cannot sign in before its email address is confirmed',
            ],
            [
              'Two-factor authentication',
              'TOTP authenticator apps; a verified second factor raises the session to `aal2`',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: 'Token verification fails closed with a specific reason: `JWKS is empty` when no public key is published, `No matching signing key found in JWKS` when the token names an unknown key, and `Invalid JWT signature` when the signature does not match. Each is answered with 401 and no data.',
        },
      ],
    },
    {
      id: 'edge-functions',
      heading: 'Edge functions',
      blocks: [
        {
          type: 'paragraph',
          text: 'Edge functions verify the user’s token before their handler runs, unless the function is explicitly declared public, and then act with that user’s role so row-level security still applies. The router also applies a request body limit (1 MiB by default), a timeout (10 seconds by default) and JSON error responses to every function.',
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Public functions are the exception',
          text: 'A function is declared public only when it serves anonymous visitors and exposes nothing personal. Declaring a function public is reviewed like a change to a row-level security policy.',
        },
      ],
    },
    {
      id: 'dependencies',
      heading: 'Dependency review',
      blocks: [
        {
          type: 'list',
          items: [
            'Dependencies are locked in `package-lock.json` and installed in CI with `npm ci`, so every build uses exactly the reviewed versions.',
            'A new dependency needs a reason: it is chosen over writing our own only when it is actively maintained and widely used, and the choice is recorded as a short decision record in the repository.',
            '`npm audit` findings are reviewed before each release; a vulnerable package on a reachable code path blocks the release until it is upgraded or mitigated.',
            'Security-sensitive work uses established libraries rather than home-grown code: jose for JWTs, argon2id for passwords, otpauth for TOTP and zod for input validation.',
          ],
        },
      ],
    },
    {
      id: 'ci-checks',
      heading: 'Continuous integration checks',
      blocks: [
        {
          type: 'table',
          caption: 'Checks every change must pass',
          columns: ['Check', 'Command', 'Catches'],
          rows: [
            [
              'Type check',
              '`npm run typecheck`',
              'Type errors across web, server and tests, in TypeScript strict mode',
            ],
            [
              'Lint',
              '`npm run lint`',
              'Unsafe patterns, misuse of React hooks, and environment reads outside the configuration module',
            ],
            [
              'Formatting',
              '`npm run format:check`',
              'Unformatted code, so reviews show only real changes',
            ],
            [
              'Unit and integration tests',
              '`npm test`',
              'Behaviour regressions, including row-level security with several users and roles, expired and tampered tokens, and hostile input such as injection attempts',
            ],
            [
              'Accessibility',
              'Browser tests with axe-core',
              'Serious or critical accessibility violations on any route, at phone and desktop widths',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: 'The same gate runs locally as `npm run check`. Build commands and performance budgets are in [Build Specs](/build-specs); the wider security programme is in [Security & Compliance](/security-compliance) and [Security Notes](/security-notes).',
        },
      ],
    },
    {
      id: 'reporting-vulnerabilities',
      heading: 'Reporting a vulnerability',
      blocks: [
        {
          type: 'paragraph',
          text: `Send security findings to [${brand.securityEmail}](mailto:${brand.securityEmail}) with the steps to reproduce and the impact you observed. Please do not test against other institutions’ data or disrupt the service, and give us a reasonable time to fix the problem before disclosing it. Independent testing also takes place through an annual penetration test; see [Security Audits](/security-audits).`,
        },
      ],
    },
  ],
};
