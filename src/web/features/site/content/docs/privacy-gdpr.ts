import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/privacy-gdpr',
  heading: 'Privacy Policy & GDPR',
  lead: `How ${brand.company} collects, uses, shares and protects personal data in ${brand.product}, and how you can exercise your rights under the GDPR and other privacy laws.`,
  meta: 'Last updated October 3, 2025',
  icon: 'file',
  badges: ['GDPR', 'FERPA', 'HIPAA'],
  sections: [
    {
      id: 'introduction',
      heading: '1. Introduction',
      blocks: [
        {
          type: 'paragraph',
          text: `This policy applies to ${brand.product}: the learning platform, its AI study coach, the content adaptation tool ${brand.adaptTool}, this website and its documentation, and the investor data room. It explains what personal data we process, why, on what legal basis, who receives it and which rights you have.`,
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'When your institution gives you access',
              text: `Your university or school decides why and how your data is processed and is the **controller**. ${brand.company} processes the data on its behalf as a **processor**, under a data processing agreement and only on the institution’s instructions. Questions about your records can go to your institution or to us; we will help either way.`,
            },
            {
              term: 'When you use the platform on your own',
              text: `In Personal mode, and for visitors of this website, ${brand.company} is the controller.`,
            },
          ],
        },
      ],
    },
    {
      id: 'data-collected',
      heading: '2. Data we collect',
      blocks: [
        {
          type: 'table',
          caption: 'Categories of personal data',
          columns: ['Category', 'Examples', 'Source'],
          rows: [
            [
              'Account data',
              'Name, email address, institution, roles, password hash, second-factor enrolment',
              'You, your institution, or your institution’s single sign-on',
            ],
            [
              'Learning data',
              'Enrolments, progress, assessment results, notes, flashcards, goals, XP and levels',
              'Your use of the platform',
            ],
            [
              'AI coach conversations',
              'Your questions and answers, the coach’s replies, and a log of which teaching approaches were tried',
              'Your study sessions and quizzes',
            ],
            [
              'Uploaded content',
              `Course material uploaded to ${brand.adaptTool}, knowledge-base files, and documents such as individual education plans (IEPs)`,
              'Educators and institutions',
            ],
            [
              'Technical and security data',
              'IP address, browser user agent, session identifier, audit records of changes to personal data',
              'Your device and our systems',
            ],
            [
              'Consent preferences',
              'Your choices for essential, functional, analytics and marketing processing',
              'You',
            ],
            [
              'Subscription data',
              'Plan, status and payment references; card details are handled by the payment provider and never stored by us',
              'You and the payment provider',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Sensitive data',
          text: 'Documents such as IEPs or accommodation records can reveal health information. We process such data only on an institution’s instructions, restrict it to the roles that need it and log every access to protected health information.',
        },
      ],
    },
    {
      id: 'how-we-use-data',
      heading: '3. How we use data',
      blocks: [
        {
          type: 'table',
          caption: 'Purposes and legal bases (GDPR Article 6)',
          columns: ['Purpose', 'Legal basis'],
          rows: [
            [
              'Providing the platform: accounts, courses, the AI study coach, progress and results',
              'Performance of a contract with you, or with your institution, which in turn relies on its own legal basis',
            ],
            [
              'Keeping the service secure: authentication, audit logging, incident detection',
              'Legitimate interests and legal obligations',
            ],
            [
              'Handling your privacy requests and keeping records required by law',
              'Legal obligation',
            ],
            ['Measuring how the platform is used (analytics)', 'Consent, which you can withdraw'],
            ['News about products and events (marketing)', 'Consent, which you can withdraw'],
          ],
        },
        {
          type: 'paragraph',
          text: 'Each recorded change to personal data carries the purpose and legal basis it was made under, and processing that relies on consent is checked against your current consent. We do not sell personal data, and we do not use student data for advertising.',
        },
        {
          type: 'paragraph',
          text: 'Every table with personal data has a retention rule stating how long rows are kept and on which legal basis; expired data is deleted automatically. Institutions can ask for the retention periods that apply to their contract.',
        },
      ],
    },
    {
      id: 'sharing',
      heading: '4. How we share data',
      blocks: [
        {
          type: 'list',
          items: [
            '**Your institution**: administrators and instructors see what their role allows, as described in [User Roles & Permissions](/user-roles-permissions).',
            '**Service providers (processors)**: our hosting provider, database platform and email delivery; AI providers that generate the coach’s replies and adapted content from the text sent to them; a payment provider for subscriptions. Each is bound by a data processing agreement and may use the data only to provide its service to us. Their certifications are listed under [Security Audits](/security-audits).',
            '**Learning systems you connect**: when an educator sends a course to a university learning management system, the course content goes to the address the institution configured.',
            '**Authorities**: only where the law requires it, and only the data required.',
          ],
        },
      ],
    },
    {
      id: 'security',
      heading: '5. Security',
      blocks: [
        {
          type: 'paragraph',
          text: 'Data is encrypted in transit with TLS 1.3 and at rest with AES-256, with keys held in a cloud key management service. Access is decided by row-level security in the database according to each user’s role, every change to personal data is written to an audit log that non-admin roles cannot alter, and accounts can be protected with a second factor.',
        },
        {
          type: 'paragraph',
          text: 'Details are on [Data Encryption](/data-encryption), [Security & Compliance](/security-compliance) and [Security Notes](/security-notes). If a breach affects your data, we follow our [Data Breach Response](/data-breach-response) plan, including notification of the supervisory authority within 72 hours where the GDPR requires it.',
        },
      ],
    },
    {
      id: 'gdpr-rights',
      heading: '6. Your rights under the GDPR',
      blocks: [
        {
          type: 'list',
          items: [
            '**Access**: obtain a copy of the personal data we hold about you.',
            '**Rectification**: have inaccurate data corrected.',
            '**Erasure**: have your data deleted where there is no reason to keep it.',
            '**Portability**: receive your data in a structured, machine-readable format.',
            '**Restriction**: have processing paused while a question is resolved.',
            '**Objection**: object to processing based on legitimate interests.',
            '**Withdraw consent** at any time for analytics and marketing. Withdrawal clears the analytics and marketing cookies and stops that processing; it does not affect processing already carried out.',
          ],
        },
        {
          type: 'steps',
          items: [
            {
              title: 'Make a request',
              text: `Email [${brand.privacyEmail}](mailto:${brand.privacyEmail}) from the address linked to your account and say which right you are exercising.`,
            },
            {
              title: 'Confirm your identity',
              text: 'We may ask you to confirm that the request comes from you, so that nobody else can obtain or delete your data.',
            },
            {
              title: 'Receive an answer within 30 days',
              text: 'Each request is recorded with a due date 30 days after it arrives. If a request is complex, we tell you within that period why we need longer, as the GDPR allows.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'You also have the right to complain to the data protection supervisory authority where you live or work.',
        },
      ],
    },
    {
      id: 'hipaa-ferpa',
      heading: '7. HIPAA and FERPA',
      blocks: [
        {
          type: 'paragraph',
          text: `**FERPA.** For US institutions, student education records remain under the institution’s control. ${brand.company} acts for the institution with a legitimate educational interest, uses the records only to provide the service, and does not disclose them to others except as the institution directs or the law requires. Instructors see only the students in courses assigned to them.`,
        },
        {
          type: 'paragraph',
          text: '**HIPAA.** Where an institution stores protected health information on the platform, every access to it is recorded in a dedicated HIPAA audit log with the purpose, the roles of the person accessing it, the patient, the IP address, the user agent and the session. Affected individuals are notified of a breach of unsecured protected health information within 60 days of its discovery.',
        },
      ],
    },
    {
      id: 'international-transfers',
      heading: '8. International transfers',
      blocks: [
        {
          type: 'paragraph',
          text: 'The hosted service stores all data in one region, us-east-1 in Northern Virginia, United States, with no secondary storage location. For users in the European Union, the European Economic Area, the United Kingdom and Switzerland, using the service therefore means a transfer of personal data to the United States.',
        },
        {
          type: 'paragraph',
          text: 'We protect such transfers with the European Commission’s **Standard Contractual Clauses**, incorporated in our data processing agreements, together with supplementary measures: encryption in transit and at rest, strict role-based access, and audit logging. Our AI providers and other processors outside the EU are bound by the same clauses.',
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Keeping data in your own region',
          text: 'Institutions that must keep data in a particular country can run the platform on their own infrastructure and PostgreSQL database in the region they choose. See [Data Hosting](/data-hosting).',
        },
      ],
    },
    {
      id: 'policy-changes',
      heading: '9. Changes to this policy',
      blocks: [
        {
          type: 'paragraph',
          text: 'We update this policy when our processing or the law changes; the date at the top shows the latest version. We announce material changes by email or in the platform before they take effect, and where a change needs your consent we ask for it again.',
        },
      ],
    },
    {
      id: 'contact',
      heading: '10. Contact',
      blocks: [
        {
          type: 'definitions',
          items: [
            {
              term: 'Privacy questions and requests',
              text: `[${brand.privacyEmail}](mailto:${brand.privacyEmail})`,
            },
            {
              term: 'Security issues',
              text: `[${brand.securityEmail}](mailto:${brand.securityEmail})`,
            },
            {
              term: 'Controller for Personal mode and this website',
              text: brand.company,
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'If you use the platform through your institution, you can also contact your institution’s data protection officer.',
        },
      ],
    },
  ],
};
