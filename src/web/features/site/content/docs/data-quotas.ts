import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/data-quotas',
  heading: 'Data & Quotas',
  lead: `The API rate limit, the monthly allowance of coach messages that applies today, the design of what is planned (paid tiers, more metered features), and how long data is kept.`,
  badges: ['100 requests/s per key', 'Coach messages metered'],
  icon: 'chart',
  sections: [
    {
      id: 'how-quotas-work',
      heading: 'How quotas work',
      blocks: [
        {
          type: 'callout',
          tone: 'warning',
          title: 'What runs in this build',
          text: `Every account starts on the free tier: 500 ${brand.coach} messages a month. Each message the coach answers is counted with \`track_usage\`; past the allowance the coach says so, with the reset date. A scheduled job resets the counters on the 1st, and the retention job runs nightly. Subscriptions, paid tiers and metering of ${brand.adaptTool} jobs and storage are planned. The [API rate limit](/data-quotas#api-rate-limit) of 100 requests per second per key applies too.`,
        },
        {
          type: 'paragraph',
          text: 'Every account will belong to a subscription tier, and each tier carries a monthly allowance for the features that cost real resources to run. Usage is counted per user and per feature as it happens, checked against the allowance before work starts, and reset once a month.',
        },
        {
          type: 'paragraph',
          text: 'Quotas are enforced in the database by named procedures, so the same rules apply whether a feature is used from the web app, through the [API](/api-access) or by a background job.',
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Allowances per tier',
          text: 'The allowance for each tier is part of your subscription or institutional agreement. During the beta, allowances are agreed with each participating institution and are not published on this page.',
        },
      ],
    },
    {
      id: 'what-is-metered',
      heading: 'What is metered',
      blocks: [
        {
          type: 'table',
          caption: 'Metered features',
          columns: ['Feature', 'Counted as', 'When it is counted'],
          rows: [
            [
              `[${brand.coach}](/ai-study-coach) messages`,
              'One per message the coach answers',
              'When the edge function accepts the message, before the model is called',
            ],
            [
              `${brand.adaptTool} jobs`,
              'One per adaptation job',
              'When a job is queued for the pipeline; a job refused at upload is not counted',
            ],
            [
              'Storage',
              'Bytes of files held in storage buckets',
              'When a file is uploaded; deleting files frees the space',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: 'Reading course material, taking notes, reviewing flashcards, browsing analytics and every other feature are not metered.',
        },
      ],
    },
    {
      id: 'quota-lifecycle',
      heading: 'The life of a quota',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Initialise',
              text: 'When a subscription starts or changes tier, `initialize_user_quotas(tier)` sets the user’s allowances for that tier. The `check-subscription` edge function confirms the active tier and its status.',
            },
            {
              title: 'Track',
              text: 'Each metered action calls `track_usage(user_id, feature_type, usage_amount, metadata)`. The metadata records context such as the course or job, so usage can be explained line by line.',
            },
            {
              title: 'Enforce',
              text: 'When an action would exceed the allowance, it is refused before any work is done, with a message saying which quota is used up. Nothing is half-processed and nothing is billed.',
            },
            {
              title: 'Reset',
              text: '`reset_monthly_quotas` runs once a month as a scheduled job and returns every counter to zero. Unused allowance does not carry over.',
            },
          ],
        },
        {
          type: 'code',
          language: 'sql',
          caption: 'The quota procedures',
          code: [
            '-- Set the allowances for a tier (on subscription start or tier change)',
            'select initialize_user_quotas(tier);',
            '',
            '-- Count usage of a metered feature',
            'select track_usage(user_id, feature_type, usage_amount, metadata);',
            '',
            '-- Monthly scheduled job: start every counter again from zero',
            'select reset_monthly_quotas();',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'seeing-your-usage',
      heading: 'Seeing your usage',
      blocks: [
        {
          type: 'list',
          items: [
            '**Org Admins** see their organisation’s usage against its allowance in the reporting area of the admin dashboard, per feature and per user.',
            '**Learners and instructors** see their own usage and remaining allowance in their settings.',
          ],
        },
        {
          type: 'paragraph',
          text: 'Row-level security applies to usage records like any other data: a user sees only their own, and an Org Admin only their organisation’s. See [User Roles & Permissions](/user-roles-permissions).',
        },
      ],
    },
    {
      id: 'api-rate-limit',
      heading: 'API rate limit',
      blocks: [
        {
          type: 'paragraph',
          text: 'Independently of monthly quotas, the API accepts up to **100 requests per second per API key**. A request over the limit gets HTTP `429 Too Many Requests` with a `Retry-After` header giving the seconds to wait; it is not processed and does not count against any quota.',
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Self-hosted deployments',
          text: 'Operators running their own deployment can change the limit with the `API_RATE_LIMIT_PER_SECOND` environment variable. Client guidance for handling 429 responses is on [API Access](/api-access).',
        },
      ],
    },
    {
      id: 'data-retention',
      heading: 'Data retention',
      blocks: [
        {
          type: 'paragraph',
          text: 'How long each kind of record is kept is itself data: one retention policy per table, each with the legal basis that justifies keeping it. The `cleanup_expired_data` procedure runs on a schedule and removes rows older than their active policy allows.',
        },
        {
          type: 'table',
          caption: 'Fields of a data retention policy',
          columns: ['Field', 'Meaning'],
          rows: [
            ['`table_name`', 'The table the policy applies to'],
            ['`retention_period_days`', 'How many days a row is kept before it is removed'],
            [
              '`legal_basis`',
              'The GDPR legal basis for keeping the data that long, such as contract or legal obligation',
            ],
            ['`is_active`', 'Whether the cleanup job currently enforces the policy'],
          ],
        },
        {
          type: 'paragraph',
          text: 'Deleting an account or erasing data on request is handled separately, through a data subject request; see [Privacy Policy & GDPR](/privacy-gdpr) and [Security & Compliance](/security-compliance).',
        },
      ],
    },
  ],
};
