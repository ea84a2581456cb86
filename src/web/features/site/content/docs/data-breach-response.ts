import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/data-breach-response',
  heading: 'Data Breach Response',
  lead: `The plan ${brand.company} follows when personal data in ${brand.product} may have been lost, altered, disclosed or accessed without authorisation: four phases, clear owners, and the notification deadlines of the GDPR and HIPAA.`,
  meta: 'Effective October 3, 2025',
  icon: 'alert',
  badges: ['GDPR: 72 hours', 'HIPAA: 60 days'],
  sections: [
    {
      id: 'scope',
      heading: 'Scope',
      blocks: [
        {
          type: 'paragraph',
          text:
            'A personal data breach is a breach of security leading to the accidental or unlawful destruction, loss, alteration, unauthorised disclosure of, or access to, personal data. This plan covers every such event in the platform, its backups and the services of our processors, whether it is caused by an attack, a mistake or a failure. It applies to all staff and contractors of ' +
            brand.company +
            '.',
        },
        {
          type: 'paragraph',
          text: 'The plan runs in four phases. Phases overlap in practice: containment starts as soon as the first facts are known, and notification deadlines run from the moment we become aware of a breach, not from the end of the investigation.',
        },
        {
          type: 'cards',
          items: [
            {
              title: '1. Identification and assessment',
              icon: 'search',
              text: 'Confirm what happened, which data and people are affected, and how severe it is.',
            },
            {
              title: '2. Containment and eradication',
              icon: 'lock',
              text: 'Stop the exposure, remove the cause and restore systems safely.',
            },
            {
              title: '3. Notification and communication',
              icon: 'mail',
              text: 'Tell institutions, authorities and affected people within the legal deadlines.',
            },
            {
              title: '4. Post-incident analysis',
              icon: 'chart',
              text: 'Learn from the incident and change what allowed it.',
            },
          ],
        },
      ],
    },
    {
      id: 'severity-levels',
      heading: 'Severity levels',
      blocks: [
        {
          type: 'table',
          caption: 'How incidents are classified',
          columns: ['Severity', 'Meaning', 'Examples'],
          rows: [
            [
              '**Critical**',
              'Personal data exposed at scale, special-category or health data involved, or an attacker still active',
              'Database or backup accessible to outsiders; a leaked service role key; unauthorised access to protected health information',
            ],
            [
              '**High**',
              'Confirmed exposure of personal data of a limited group, or a vulnerability that is being exploited',
              'A misconfigured policy shows one class’s results to another; a compromised staff account',
            ],
            [
              '**Medium**',
              'A weakness or event that could expose data, without evidence that it did',
              'A vulnerability report with no sign of exploitation; repeated failed sign-ins against one account',
            ],
            [
              '**Low**',
              'A security event with no realistic risk to personal data',
              'A blocked automated scan; a lost device with an encrypted disk and no stored credentials',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Critical incidents start their own response',
          text: 'Recording an incident as critical automatically creates three response actions (containment, notification and assessment), so none can be forgotten under pressure. Severity is reviewed as facts emerge and can be raised or lowered.',
        },
      ],
    },
    {
      id: 'roles-and-contacts',
      heading: 'Roles and contacts',
      blocks: [
        {
          type: 'table',
          caption: 'Who does what during a breach',
          columns: ['Role', 'Responsibility'],
          rows: [
            [
              'Incident lead',
              'Owns the incident from report to closure, sets severity, assigns actions and keeps the timeline.',
            ],
            [
              'Privacy lead',
              'Assesses the risk to individuals, decides with the incident lead which notifications are required and drafts them.',
            ],
            [
              'Engineering on call',
              'Investigates, contains and eradicates; preserves logs and evidence.',
            ],
            [
              'Customer contact',
              'Keeps each affected institution’s designated contact informed from first notice to closure.',
            ],
            [
              'Management',
              'Approves external statements and provides the resources the response needs.',
            ],
          ],
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'Report a suspected breach or vulnerability',
              text: `[${brand.securityEmail}](mailto:${brand.securityEmail})`,
            },
            {
              term: 'Privacy and notification questions',
              text: `[${brand.privacyEmail}](mailto:${brand.privacyEmail})`,
            },
            {
              term: 'Customer support',
              text: `[${brand.supportEmail}](mailto:${brand.supportEmail}), monitored 24/7`,
            },
          ],
        },
      ],
    },
    {
      id: 'identification-and-assessment',
      heading: 'Phase 1: Identification and assessment',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Record the incident',
              text: 'Anyone who suspects a breach reports it at once. The report is recorded as a security incident with status open, the time of discovery and what is known.',
            },
            {
              title: 'Confirm and classify',
              text: 'The incident lead confirms whether personal data is involved, sets the severity and moves the incident to investigating.',
            },
            {
              title: 'Establish scope',
              text: 'Using the audit log (who, what, when, from which address and session) and the HIPAA access log where relevant, determine which records, tables, institutions and people are affected.',
            },
            {
              title: 'Assess the risk',
              text: 'Judge the likely consequences for the people affected: the kind of data, whether it was encrypted, how many people, and whether it can be misused. This decides which notifications are required.',
            },
            {
              title: 'Preserve evidence',
              text: 'Secure logs, audit entries and affected artefacts before anything is changed, so that the cause can be proven later.',
            },
          ],
        },
      ],
    },
    {
      id: 'containment-and-eradication',
      heading: 'Phase 2: Containment and eradication',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Stop the exposure',
              text: 'Revoke sessions, disable compromised accounts, withdraw leaked links and correct a faulty access policy. The incident moves to contained when no further data is at risk.',
            },
            {
              title: 'Rotate credentials',
              text: 'Rotate any exposed secret. Rotating the signing key issues new API keys; tokens signed by the old key stop being accepted once they expire.',
            },
            {
              title: 'Remove the cause',
              text: 'Fix the vulnerability, configuration or process that allowed the breach, and check that the same weakness does not exist elsewhere.',
            },
            {
              title: 'Restore safely',
              text: 'Where data was altered or destroyed, restore it from encrypted backups or point-in-time recovery (available for the last 7 days), then verify its integrity. The incident moves to resolved.',
            },
          ],
        },
      ],
    },
    {
      id: 'notification-and-communication',
      heading: 'Phase 3: Notification and communication',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Inform affected institutions',
              text: 'Where we process data for an institution, we inform its designated contact without undue delay, so that it can meet its own obligations as controller. We share what we know and update it as we learn more.',
            },
            {
              title: 'Notify the supervisory authority',
              text: 'Where the GDPR requires it, the authority is notified within 72 hours of becoming aware of the breach, with its nature, the categories and approximate numbers of people and records, likely consequences, the measures taken and a contact point. Information not yet available follows in phases.',
            },
            {
              title: 'Notify affected people',
              text: 'When a breach is likely to result in a high risk to people’s rights and freedoms, we tell them directly and in plain language what happened, what it means for them and what they can do.',
            },
            {
              title: 'Meet HIPAA obligations',
              text: 'For unsecured protected health information, affected individuals are notified without unreasonable delay and no later than 60 days after discovery, and the Department of Health and Human Services and, where required, the media are notified as the Breach Notification Rule prescribes.',
            },
          ],
        },
      ],
    },
    {
      id: 'notification-deadlines',
      heading: 'Notification deadlines',
      blocks: [
        {
          type: 'table',
          caption: 'Legal deadlines for breach notification',
          columns: ['Regulation', 'Who is notified', 'Deadline'],
          rows: [
            [
              '**GDPR** Art. 33',
              'The competent supervisory authority',
              '**72 hours** after becoming aware of the breach, unless it is unlikely to result in a risk to people',
            ],
            [
              '**GDPR** Art. 33(2)',
              'The controller (the institution), when we act as processor',
              'Without undue delay after becoming aware',
            ],
            [
              '**GDPR** Art. 34',
              'Affected people, when the risk to them is high',
              'Without undue delay',
            ],
            [
              '**HIPAA** Breach Notification Rule',
              'Affected individuals',
              '**60 days** at the latest after discovery, without unreasonable delay',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'FERPA',
          text: 'FERPA sets no fixed breach deadline, but institutions must be able to account for disclosures of education records. We inform affected institutions promptly and give them the details they need for their own records and notices.',
        },
      ],
    },
    {
      id: 'post-incident-analysis',
      heading: 'Phase 4: Post-incident analysis',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Review',
              text: 'Within the following weeks the response team reconstructs the timeline, the root cause and what worked or did not in the response, without assigning blame.',
            },
            {
              title: 'Act',
              text: 'Each improvement becomes a tracked action with an owner and a due date: a fix, a new control, a change to this plan or to training.',
            },
            {
              title: 'Record and close',
              text: 'The findings and decisions are recorded with the incident, including breaches that did not need to be notified, as GDPR Article 33(5) requires. Only then is the incident closed.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'Every incident and its response actions are kept in the incident register; the workflow and the audit trail behind it are described on [Security & Compliance](/security-compliance), and lessons learned feed the programme on [Security Audits](/security-audits).',
        },
      ],
    },
  ],
};
