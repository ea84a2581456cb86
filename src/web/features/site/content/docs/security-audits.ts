import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/security-audits',
  heading: 'Security Audits',
  lead: `How the security of ${brand.product} is checked by others: the certifications of the vendors it runs on, ${brand.company}’s own certification roadmap, and an annual independent penetration test whose findings are tracked to closure.`,
  icon: 'check',
  badges: ['Annual penetration test', 'SOC 2 Type II in progress'],
  sections: [
    {
      id: 'approach',
      heading: 'Our approach',
      blocks: [
        {
          type: 'paragraph',
          text: 'Assurance comes from three sources. The infrastructure the platform runs on is operated by vendors with independently audited security programmes. Our own controls are being brought under formal certification on a published timetable. And once a year, independent testers attack the platform the way an adversary would.',
        },
        {
          type: 'cards',
          items: [
            {
              title: 'Certified vendors',
              icon: 'cloud',
              text: 'Hosting, database and AI services come from providers that hold SOC 2 Type II and, where standard for their kind of service, ISO 27001.',
            },
            {
              title: 'Own certification',
              icon: 'shield',
              text: 'SOC 2 Type II and a FERPA self-assessment are under way; ISO 27001 follows.',
            },
            {
              title: 'Penetration testing',
              icon: 'search',
              text: 'An independent test every year, most recently in August 2025.',
            },
          ],
        },
      ],
    },
    {
      id: 'vendor-certifications',
      heading: 'Vendor certifications',
      blocks: [
        {
          type: 'table',
          caption: 'Certifications of the vendors the hosted service relies on',
          columns: ['Vendor', 'What it provides', 'Certifications'],
          rows: [
            [
              'Hosting provider',
              'Compute, networking and delivery of the web application',
              'SOC 2 Type II, ISO 27001',
            ],
            [
              'Database platform',
              'The managed PostgreSQL database, file storage and backups',
              'SOC 2 Type II',
            ],
            [
              'AI providers',
              'The language models behind the AI study coach and content adaptation',
              'SOC 2 Type II',
            ],
            ['Payment provider', 'Checkout and subscription payments', 'PCI DSS Level 1'],
          ],
        },
        {
          type: 'paragraph',
          text: 'Each vendor is bound by a data processing agreement. Their audit reports are issued by the vendors themselves under their own confidentiality terms; we help customers obtain the ones they need for a procurement review.',
        },
      ],
    },
    {
      id: 'certification-roadmap',
      heading: 'Certification roadmap',
      blocks: [
        {
          type: 'table',
          caption: `${brand.company} certification roadmap`,
          columns: ['Certification', 'Status', 'Expected'],
          rows: [
            ['**SOC 2 Type II**', 'In progress', 'Q2 2026'],
            ['**ISO 27001**', 'Planned', 'Q4 2026'],
            ['**FERPA audit**', 'In progress, as a self-assessment', 'Q1 2026'],
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Where we stand today',
          text: `${brand.company} does not yet hold SOC 2 or ISO 27001 certification of its own; the dates above are targets. Until the reports exist, this documentation, our completed security questionnaires and the latest penetration test summary are the evidence we can offer, and we say so plainly in any procurement process.`,
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'SOC 2 Type II',
              text: 'An independent auditor tests whether our controls for security, availability and confidentiality operated effectively over a period of months, not only whether they exist on one date.',
            },
            {
              term: 'ISO 27001',
              text: 'Certification of our information security management system: how risks are identified, treated and reviewed across the company.',
            },
            {
              term: 'FERPA self-assessment',
              text: 'A structured review of how education records are accessed, disclosed and logged in the platform against FERPA’s requirements for institutions and the providers acting for them.',
            },
          ],
        },
      ],
    },
    {
      id: 'penetration-testing',
      heading: 'Annual penetration test',
      blocks: [
        {
          type: 'paragraph',
          text: 'An independent security firm tests the platform once a year. The latest test took place in **August 2025**. Testers work with accounts for each standard role and try to reach data that their role should not see. The scope covers:',
        },
        {
          type: 'list',
          items: [
            'The web application and its sign-in, password recovery and second-factor flows.',
            'The auth, REST, storage and edge-function APIs, with and without valid tokens.',
            'Access control: attempts to read or change another user’s, another course’s or another organisation’s data, and to escalate from one role to another.',
            'Token handling: forged, expired and altered tokens, and keys from other deployments.',
            'File storage and the investor data room: access to private files without authorisation.',
          ],
        },
        {
          type: 'paragraph',
          text: 'A summary of the latest test is available to customers and prospective customers on request, under a non-disclosure agreement.',
        },
      ],
    },
    {
      id: 'findings-tracking',
      heading: 'How findings are tracked',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Record',
              text: 'Every finding, from a penetration test, a vulnerability report or our own review, is recorded with its severity (critical, high, medium or low), an owner and a due date.',
            },
            {
              title: 'Assess exposure',
              text: 'If a finding may already have exposed personal data, it is also opened as a security incident and handled under the [Data Breach Response](/data-breach-response) plan.',
            },
            {
              title: 'Fix',
              text: 'Critical and high findings take priority over feature work. The fix includes an automated test that reproduces the attack, so the weakness cannot silently return.',
            },
            {
              title: 'Verify',
              text: 'A person other than the one who made the fix confirms it; penetration test findings are retested by the testers.',
            },
            {
              title: 'Close and report',
              text: 'The finding is closed with a reference to the fix. Open findings and their due dates are reviewed by management until none remain.',
            },
          ],
        },
      ],
    },
    {
      id: 'continuous-assurance',
      heading: 'Between audits',
      blocks: [
        {
          type: 'list',
          items: [
            'Every change passes type checks, linting, automated tests and accessibility checks before it ships; see [Developer Build & Security](/developer-build-security).',
            'Dependencies are reviewed before they are added and kept up to date.',
            'Compliance Officers can review audit logs, data access patterns and security events at any time, read-only; see [User Roles & Permissions](/user-roles-permissions).',
            'Security reports from anyone are welcome; see [Security Notes](/security-notes).',
          ],
        },
      ],
    },
    {
      id: 'requesting-evidence',
      heading: 'Requesting evidence',
      blocks: [
        {
          type: 'paragraph',
          text: `For a procurement or vendor-risk review, write to [${brand.securityEmail}](mailto:${brand.securityEmail}). We complete security questionnaires, provide our data processing agreement and the penetration test summary, and answer follow-up questions from your security and data protection teams. The controls themselves are described on [Security & Compliance](/security-compliance).`,
        },
      ],
    },
  ],
};
