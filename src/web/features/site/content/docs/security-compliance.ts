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
          text: `${brand.product} is a single web application in front of a PostgreSQL database. Every request, whether it comes from the browser, the REST API or an edge function, runs inside the database under the role carried by the caller's token. Access rules, audit logging, consent, data subject requests, incidents and retention are therefore implemented once, in the database, rather than repeated in each screen or endpoint.`,
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
              text: 'Who changed what, when, from where, for which purpose and on which legal basis, kept out of reach of non-admin roles.',
            },
            {
              title: 'Privacy operations',
              icon: 'users',
              text: 'Consent records per category, data subject requests with a 30-day due date, and retention rules per table.',
            },
            {
              title: 'Incident response',
              icon: 'alert',
              text: 'Security incidents with severity and status; a critical incident opens its containment, notification and assessment actions automatically.',
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
              'Consent records per category, data subject requests with due dates, a legal basis recorded with each audited change, retention rules per table, erasure and export handled server-side.',
            ],
            [
              '**FERPA**',
              'Education records of students at US institutions',
              'Role-based access so that instructors see only the students in courses assigned to them, an audit trail of changes to records, and institution-controlled role assignment.',
            ],
            [
              '**HIPAA**',
              'Protected health information (PHI)',
              'Every access to PHI is written to a dedicated `hipaa_audit_log` with purpose, roles, patient, IP address, user agent and session.',
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
          type: 'code',
          language: 'sql',
          caption: 'Simplified illustration of the policy pattern',
          code: [
            '-- Compliance officers may read the audit log.',
            '-- Application roles get no update or delete policy, so they cannot change it.',
            'create policy audit_log_read on audit_log for select to authenticated',
            "  using (has_role(auth.uid(), 'compliance_officer'));",
          ].join('\n'),
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
          text: 'Every table that holds personal data has an audit trigger, and application events that are not row changes (a sign-in, an export) are recorded through `record_audit_event`. Each entry records:',
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
            ['`old_values`', 'The row before the change'],
            ['`new_values`', 'The row after the change'],
            ['`purpose`', 'Why the data was processed'],
            ['`legal_basis`', 'The GDPR legal basis for the processing'],
            ['`ip_address`', 'The client address of the request'],
            ['`user_agent`', 'The client software of the request'],
            ['`timestamp`', 'When it happened'],
            ['`session_id`', 'The session the request belonged to'],
          ],
        },
        {
          type: 'callout',
          tone: 'success',
          title: 'Immutable to non-admin roles',
          text: 'No policy allows a non-admin role to update or delete audit entries. Compliance Officers can read the log, access patterns and security events, but not the user data or course content behind them.',
        },
        {
          type: 'paragraph',
          text: 'Access to protected health information is logged separately by `log_hipaa_access` into `hipaa_audit_log`, which records the purpose, the roles of the person accessing, the patient, the IP address, the user agent and the session.',
        },
      ],
    },
    {
      id: 'consent-management',
      heading: 'Consent management',
      blocks: [
        {
          type: 'paragraph',
          text: 'Consent is recorded per user and per category in `user_consent`, with the time it was given or withdrawn.',
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'Essential',
              text: 'Needed for the service to work: sign-in, security and your saved preferences. Always on.',
            },
            {
              term: 'Functional',
              text: 'Conveniences such as remembering interface choices between visits.',
            },
            {
              term: 'Analytics',
              text: 'Measurement of how the platform is used, to improve it.',
            },
            {
              term: 'Marketing',
              text: 'Communication about products and events.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'Withdrawing consent runs `withdraw_user_consent`, which records the withdrawal and clears the analytics and marketing cookies. Before processing is recorded, `validate_legal_basis` checks that a valid legal basis exists for the stated purpose, so consent-based processing stops once consent is gone.',
        },
      ],
    },
    {
      id: 'data-subject-requests',
      heading: 'Data subject requests',
      blocks: [
        {
          type: 'paragraph',
          text: 'Requests under the GDPR are recorded in `data_subject_requests` by `create_data_subject_request`, which sets a due date 30 days after the request unless another date is given. Six request types are supported:',
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
          text: 'The request dashboard shows each request as **pending**, **completed** or **overdue** (not completed by its due date). Erasure and export run server-side in edge functions, so the complete data set is covered rather than what one screen can see.',
        },
      ],
    },
    {
      id: 'security-incidents',
      heading: 'Security incidents',
      blocks: [
        {
          type: 'paragraph',
          text: 'Suspicious activity is recorded by `detect_security_incident` as a row in `security_incidents` with a severity (low, medium, high or critical) and a status. Each incident moves through a fixed workflow:',
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
          text: 'When an incident is recorded with critical severity, response actions for containment, notification and assessment are created automatically in `incident_response_actions`, so none of the three can be forgotten. The full plan is on [Data Breach Response](/data-breach-response).',
        },
      ],
    },
    {
      id: 'data-retention',
      heading: 'Data retention',
      blocks: [
        {
          type: 'paragraph',
          text: 'Each table with personal data has a retention rule. A rule names the table (`table_name`), how long rows are kept (`retention_period_days`), the legal basis for keeping them (`legal_basis`) and whether the rule is in force (`is_active`).',
        },
        {
          type: 'paragraph',
          text: '`cleanup_expired_data` runs as a scheduled background job and deletes rows older than the period of each active rule. Inactive rules are skipped, which lets an institution suspend deletion, for example during a legal hold, without losing the rule.',
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
            ['`record_audit_event`', 'Writes an application event to the audit log'],
            [
              '`cleanup_expired_data`',
              'Deletes data past its retention period under the active retention rules',
            ],
            [
              '`withdraw_user_consent`',
              'Records a consent withdrawal; the analytics and marketing cookies are cleared',
            ],
            [
              '`validate_legal_basis`',
              'Checks that processing for a purpose has a valid legal basis',
            ],
            [
              '`create_data_subject_request`',
              'Records a GDPR request with its type and due date (30 days by default)',
            ],
            [
              '`detect_security_incident`',
              'Records a security incident; critical ones open their response actions',
            ],
            ['`log_hipaa_access`', 'Records an access to protected health information'],
          ],
        },
      ],
    },
  ],
};
