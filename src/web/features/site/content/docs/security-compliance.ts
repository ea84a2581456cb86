import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/security-compliance',
  heading: 'Security & Compliance',
  lead: `How ${brand.product} protects student and staff data: access decided by the database itself, an audit trail of every change to personal data, and the records that GDPR, FERPA and HIPAA work depends on.`,
  badges: ['GDPR', 'FERPA', 'HIPAA', 'Row-level security'],
  icon: 'shield',
  sections: [
    {
      id: 'programme-overview',
      heading: 'How the programme is organised',
      blocks: [
        {
          type: 'paragraph',
          text: `${brand.product} is a single web application in front of a PostgreSQL database. Every request, from the browser, the REST API or a function, runs inside the database under the role carried by the caller's token. Access rules, audit logging, incident detection and retention are implemented once, in the database, not in each screen or endpoint.`,
        },
        {
          type: 'cards',
          items: [
            {
              title: 'Access control',
              icon: 'lock',
              text: 'Row-level security on every table that holds personal data, with application roles checked by one `has_role` function.',
            },
            {
              title: 'Audit trail',
              icon: 'file',
              text: 'Who changed what, when, for which purpose and on which legal basis; append-only, with a hash chain that shows any change made behind the platform’s back.',
            },
            {
              title: 'Retention',
              icon: 'users',
              text: 'Retention rules per table, applied every night by a background job that deletes or anonymises what has expired and records how many rows.',
            },
            {
              title: 'Incident response',
              icon: 'alert',
              text: 'Incidents raised from failed sign-ins, refresh-token reuse, data-room PIN guessing and mass exports; a critical one opens its containment, assessment and notification actions.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'The detail lives on the pages of this section: [User Roles & Permissions](/user-roles-permissions), [Data Encryption](/data-encryption), [Data Hosting](/data-hosting), [Data Breach Response](/data-breach-response), [Security Audits](/security-audits), [Security Notes](/security-notes) and the [Privacy Policy & GDPR](/privacy-gdpr).',
        },
      ],
    },
    {
      id: 'regulatory-frameworks',
      heading: 'Regulatory frameworks',
      blocks: [
        {
          type: 'table',
          caption: 'Frameworks the platform is designed to support',
          columns: ['Framework', 'What it protects', 'How the platform supports it'],
          rows: [
            [
              '**GDPR**',
              'Personal data of people in the EU and EEA',
              'Consent per category with its history, a purpose and one of the six legal bases recorded with each audited change and refused without one, retention rules per table, and the 72-hour notification deadline on incidents that involve personal data. Data subject requests are recorded and tracked to their 30-day deadline.',
            ],
            [
              '**FERPA**',
              'Education records of students at US institutions',
              'Role-based access so that instructors see only the students in courses assigned to them, an audit trail of changes to records, and institution-controlled role assignment.',
            ],
            [
              '**HIPAA**',
              'Protected health information (PHI)',
              'Incidents that involve PHI carry the 60-day notification deadline. Each access to an IEP document is logged in `hipaa_audit_log` with its purpose.',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Shared responsibility',
          text: `The platform provides the controls; the institution decides what data it uploads and who holds which role. Whether HIPAA applies depends on the data an institution chooses to store, for example health details that support an accommodation. Contact [${brand.privacyEmail}](mailto:${brand.privacyEmail}) to discuss your situation before storing PHI.`,
        },
      ],
    },
    {
      id: 'access-control',
      heading: 'Access control with row-level security',
      blocks: [
        {
          type: 'paragraph',
          text: 'The database knows three request roles: `anon` for visitors who are not signed in, `authenticated` for signed-in users, and `service_role` for trusted server-to-server calls. The gateway verifies the token of each request, switches to that role for the duration of one transaction and makes the token claims available to the database. Row-level security policies then decide, row by row, what the request may read or change.',
        },
        {
          type: 'paragraph',
          text: 'Application roles such as Student, Instructor, Org Admin and Compliance Officer are stored in the `user_roles` table and checked inside policies with `has_role(user_id, role)`. Because the rule is in the database, a new screen or API endpoint cannot accidentally bypass it. The roles and their rights are listed on [User Roles & Permissions](/user-roles-permissions).',
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'The one role that bypasses policies',
          text: 'The `service_role` bypasses row-level security by design, so its key is an administrative secret for server-to-server use only. See [Security Notes](/security-notes) and [API Access](/api-access).',
        },
      ],
    },
    {
      id: 'audit-logging',
      heading: 'Audit logging',
      blocks: [
        {
          type: 'paragraph',
          text: 'Every table that holds personal data has an audit trigger, and events that are not row changes (a sign-in, a reused refresh token, a data-room document view) are recorded through `record_audit_event`. Passwords, tokens and secrets are never copied into the log. Each entry in `audit_log` records:',
        },
        {
          type: 'table',
          caption: 'Fields of an audit log entry',
          columns: ['Field', 'Meaning'],
          rows: [
            ['`user_id`', 'The user who acted, if signed in'],
            ['`action`', 'What happened, for example insert, update, delete or export'],
            ['`table_name`', 'The table the change applies to'],
            ['`record_id`', 'The row that changed'],
            ['`old_values`', 'The changed columns before the change (the whole row for a delete)'],
            ['`new_values`', 'The changed columns after it (the whole row for an insert)'],
            ['`purpose`', 'Why the data was processed'],
            ['`legal_basis`', 'The GDPR legal basis for the processing'],
            ['`ip_address`', 'The client address, for events the server records (sign-ins, views)'],
            ['`user_agent`', 'The client software, for the same events'],
            ['`timestamp`', 'When it happened'],
            ['`session_id`', 'The session the request belonged to'],
          ],
        },
        {
          type: 'callout',
          tone: 'success',
          title: 'Append-only, and tampering shows',
          text: 'No API role, not even the service role, may insert, update or delete audit entries, and a trigger refuses changes by the database owner too; only the retention job removes the oldest entries. Each entry carries the hash of the one before it, and `verify_audit_chain` reports the first entry that was changed or removed. Compliance Officers read identifiers and actions (who, what, which record, when, why), never `old_values` or `new_values`, so the content of personal records stays out of their view.',
        },
        {
          type: 'paragraph',
          text: 'Every entry needs a purpose and a legal basis: `validate_legal_basis` accepts the six bases of GDPR Article 6 (consent, contract, legal obligation, vital interests, public task, legitimate interests) and `record_audit_event` refuses an event without one.',
        },
      ],
    },
    {
      id: 'consent-management',
      heading: 'Consent management',
      blocks: [
        {
          type: 'paragraph',
          text: 'A banner on the first visit asks for consent in four categories, with Reject all and Accept all side by side; the choice can be changed any time from Privacy choices in the footer. For a signed-in user it is kept in `user_consent`, and every change is added to `user_consent_history` with its time, source and policy version. ',
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'Essential',
              text: 'Needed for the service to work: the sign-in session, the data-room grant and the consent choice itself. Always on.',
            },
            {
              term: 'Functional',
              text: 'Remembering the documentation sidebar’s state and the last workspace between visits.',
            },
            {
              term: 'Analytics',
              text: 'Measurement of how the platform is used. No analytics tool runs today.',
            },
            {
              term: 'Marketing',
              text: 'Advertising and campaign measurement. No marketing tool runs today.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'Withdrawing consent runs `withdraw_user_consent`, which records the withdrawal; the browser then deletes the cookies and stored keys of every refused category. Essential consent cannot be withdrawn.',
        },
      ],
    },
    {
      id: 'data-subject-requests',
      heading: 'Data subject requests',
      blocks: [
        {
          type: 'paragraph',
          text: 'A person files a request from their Privacy page; `create_data_subject_request` records it in `data_subject_requests`, due 30 days later. Six request types:',
        },
        {
          type: 'list',
          items: [
            '**Access**: a copy of the personal data held about the requester',
            '**Rectification**: correction of inaccurate data',
            '**Erasure**: deletion of personal data',
            '**Portability**: an export in a machine-readable format',
            '**Restriction**: a pause on processing while a question is resolved',
            '**Objection**: an end to processing based on legitimate interests',
          ],
        },
        {
          type: 'paragraph',
          text: 'Admins work them as **pending**, **completed** or **overdue**. Export (a zip behind an expiring link) and erasure run from the request queue.',
        },
      ],
    },
    {
      id: 'security-incidents',
      heading: 'Security incidents',
      blocks: [
        {
          type: 'paragraph',
          text: 'Every five minutes a background job runs `detect_security_incident`, which raises a row in `security_incidents` for each signal over its threshold: 20 failed sign-ins from one address or 10 for one account within 15 minutes, any reuse of a refresh token (the session is revoked at once), 10 wrong data-room PINs from one address within 15 minutes, and 5 exports by one person within an hour. A Compliance Officer can also report an incident with `report_security_incident`. Each incident has a severity (low, medium, high or critical) and moves through a fixed workflow, one step at a time; a skipped step is refused:',
        },
        {
          type: 'steps',
          items: [
            { title: 'Open', text: 'The incident is recorded and awaits triage.' },
            {
              title: 'Investigating',
              text: 'The team establishes scope, affected data and cause.',
            },
            { title: 'Contained', text: 'The exposure is stopped; no further data is at risk.' },
            { title: 'Resolved', text: 'The cause is fixed and affected systems are restored.' },
            {
              title: 'Closed',
              text: 'Notifications are complete and the post-incident review is recorded.',
            },
          ],
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Critical incidents',
          text: 'When an incident is recorded with critical severity, response actions for containment (due in an hour), assessment (24 hours) and notification (72 hours) are created automatically in `incident_response_actions`, so none of the three can be forgotten. The full plan is on [Data Breach Response](/data-breach-response).',
        },
        {
          type: 'paragraph',
          text: 'An incident that involves personal data carries the GDPR deadline, 72 hours from detection, to notify the supervisory authority; one that involves protected health information carries the HIPAA deadline of 60 days to notify the people affected.',
        },
      ],
    },
    {
      id: 'data-retention',
      heading: 'Data retention',
      blocks: [
        {
          type: 'paragraph',
          text: 'Records kept for a limited time have a rule in `data_retention_policies`: the table, how many days rows are kept, the legal basis, whether the rule is active, and whether expired rows are deleted or anonymised. The defaults: audit entries seven years; failed sign-ins lose their address, browser and email after 30 days; data-room PIN attempts are deleted after 90 days and document views after two years. Learning records (notes, progress, attempts) are kept while the account exists.',
        },
        {
          type: 'paragraph',
          text: '`cleanup_expired_data` runs every night at 03:15 UTC as a background job. Each run is kept in `retention_runs` and written to the audit log with the number of rows it deleted or anonymised. Inactive rules are skipped, which lets a platform administrator suspend deletion, for example during a legal hold, without losing the rule.',
        },
      ],
    },
    {
      id: 'procedures',
      heading: 'Procedures reference',
      blocks: [
        {
          type: 'table',
          caption: 'Database procedures behind the compliance features',
          columns: ['Procedure', 'What it does'],
          rows: [
            [
              '`record_audit_event`',
              'Writes an event to the audit log; refused without a valid legal basis',
            ],
            ['`validate_legal_basis`', 'Checks a purpose and one of the six GDPR legal bases'],
            ['`verify_audit_chain`', 'Reports the first audit entry that was changed or removed'],
            [
              '`cleanup_expired_data`',
              'Deletes or anonymises data past its retention period under the active rules',
            ],
            [
              '`detect_security_incident`',
              'Raises incidents from sign-in, token, PIN and export signals',
            ],
            [
              '`report_security_incident`',
              'Records an incident a Compliance Officer learnt of; critical ones open their actions',
            ],
          ],
        },
      ],
    },
  ],
};
