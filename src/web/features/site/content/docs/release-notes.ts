import { brand } from '@common/brand';
import { routes } from '@common/routes';
import type { DocPage } from '../types';

// The adaptation tool's path is derived from the brand initials, so look it up rather than type it.
const adaptPath = routes.find((route) => route.label === brand.adaptTool)?.path ?? '/';

export const docPage: DocPage = {
  path: '/release-notes',
  heading: 'Release Notes',
  lead: `Beta 2025-08 is the first beta release of ${brand.product}: the learning platform, the ${brand.coach} and ${brand.adaptTool}, open to invited institutions and learners.`,
  meta: 'Beta 2025-08 · Released August 2025',
  badges: ['Beta 2025-08', 'Coupon access only'],
  icon: 'file',
  sections: [
    {
      id: 'about-this-release',
      heading: 'About this release',
      blocks: [
        {
          type: 'paragraph',
          text: `Beta 2025-08 is the first release of ${brand.product} to bring together the learner experience, course and user administration, Organization mode for institutions with several boards, the Socratic ${brand.coach}, and ${brand.adaptTool} for turning existing course material into accessible formats.`,
        },
        {
          type: 'paragraph',
          text: `${brand.product} is delivered as a progressive web app on a managed backend platform. Learners and staff sign in with email and password or, for institutions, through [enterprise single sign-on](/sso-integration). The technical design is described in [System Architecture](/system-architecture) and [Build Specs](/build-specs).`,
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Beta software',
          text: 'This is a beta. Features listed below are available to beta participants, and behaviour may still change before general availability. Changes that affect integrations or data handling are announced in these release notes before they ship.',
        },
      ],
    },
    {
      id: 'what-shipped',
      heading: 'What shipped',
      blocks: [
        {
          type: 'cards',
          items: [
            {
              title: 'Learner experience',
              icon: 'graduation',
              text: 'Home dashboard, course library with PDF and ePub reading, notes and flashcards, goals with XP and levels, activity analytics, the live hub and personal settings.',
            },
            {
              title: brand.coach,
              icon: 'brain',
              text: 'Socratic tutoring in three modes: Study Session (guided practice with a refresher offer when a learner struggles), Quiz (hints and Socratic feedback) and General Knowledge (short factual answers).',
            },
            {
              title: 'Administration',
              icon: 'settings',
              text: 'User management, course management, the module manager, analytics, struggle thresholds and reporting for instructors and administrators.',
            },
            {
              title: 'Organization mode',
              icon: 'users',
              text: 'Central board management, global user oversight, aggregated analytics and content distribution across boards for top-level administrators.',
            },
            {
              title: brand.adaptTool,
              icon: 'layers',
              text: 'A four-step pipeline that turns SCORM packages, PDF, DOCX, TXT or a typed course prompt into accessible lessons and quizzes, exported as SCORM JSON, Markdown, HTML or MP3 and delivered to an LMS by webhook.',
            },
            {
              title: 'Security and compliance',
              icon: 'shield',
              text: 'Row-level security on personal data, audit logging, consent management, data subject requests and the security incident workflow.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: `Read more on the [Platform Overview](/platform-overview), the [${brand.coach}](/ai-study-coach) and [${brand.adaptTool}](${adaptPath}) pages.`,
        },
      ],
    },
    {
      id: 'ai-models',
      heading: 'AI models in this beta',
      blocks: [
        {
          type: 'paragraph',
          text: `The beta runs on two AI models from two different providers. Each coaching mode is routed to the model that suits it; requests are made server-side by edge functions, never directly from the browser.`,
        },
        {
          type: 'table',
          caption: `AI model routing in Beta 2025-08`,
          columns: ['Mode', 'Model', 'Notes'],
          rows: [
            [
              'Personal coaching (Study Session, Quiz)',
              'A mid-size model from the first provider',
              'Optional retrieval over the learner’s course material grounds questions and hints in what the course teaches.',
            ],
            [
              'General Knowledge',
              'A small model from the second provider',
              'Quick, concise answers with no back-and-forth. If the small model cannot serve a request, a larger model from the same provider answers instead.',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Voice is not part of this release',
          text: 'A voice feature from a speech provider is planned. It is not live in Beta 2025-08, and no audio of learners is recorded or sent anywhere.',
        },
      ],
    },
    {
      id: 'beta-access-and-pricing',
      heading: 'Beta access and pricing',
      blocks: [
        {
          type: 'definitions',
          items: [
            {
              term: 'Access gate',
              text: 'The beta access gate is enabled: new accounts need a beta coupon. There is no open self-service sign-up during the beta.',
            },
            {
              term: 'Pricing',
              text: 'Plans are shown for information, but their purchase buttons are disabled for the duration of the beta. No payment is taken from beta participants.',
            },
            {
              term: 'Quotas',
              text: 'Usage quotas apply per subscription tier and reset monthly, as described in [Data & Quotas](/data-quotas).',
            },
          ],
        },
      ],
    },
    {
      id: 'known-limitations',
      heading: 'Known limitations',
      blocks: [
        {
          type: 'paragraph',
          text: 'We would rather you hear about these from us than discover them during a pilot:',
        },
        {
          type: 'list',
          items: [
            '**Two-factor authentication:** the settings screen shows a 2FA toggle, but at the Beta 2025-08 cut the backend does not yet enforce a second factor. Do not rely on it as a control during the beta.',
            '**Admin views** are gated routes inside the same web app. A dedicated admin application is planned after the beta.',
            '**Single hosting region:** all data is stored in one primary region, us-east-1 (Northern Virginia), with no secondary storage location. See [Data Hosting](/data-hosting).',
            `**${brand.adaptTool} roadmap items** are not in this release: a searchable course archive, a learner type selector (ADHD, dyslexia, English language learner), an interactive quiz builder and an insights panel showing which model contributed what.`,
            '**Certifications** are still on the roadmap: SOC 2 Type II and the FERPA self-assessment are in progress and ISO 27001 is planned. See [Security Audits](/security-audits).',
            '**Quota figures** per tier are agreed with each beta institution and are not yet published on this site.',
          ],
        },
      ],
    },
    {
      id: 'security-in-this-release',
      heading: 'Security in this release',
      blocks: [
        {
          type: 'list',
          items: [
            'Traffic is encrypted with TLS 1.3 and stored data with AES-256; see [Data Encryption](/data-encryption).',
            'Password changes require re-authentication, and email verification is enabled for every new account.',
            'Edge functions verify the caller’s token unless they are explicitly public.',
            'Access to personal data is decided by row-level security in the database; see [Security & Compliance](/security-compliance).',
          ],
        },
      ],
    },
    {
      id: 'feedback-and-support',
      heading: 'Feedback and support',
      blocks: [
        {
          type: 'paragraph',
          text: `Beta participants can reach support by email at [${brand.supportEmail}](mailto:${brand.supportEmail}) or through the in-app help centre, both around the clock. Response targets are listed in [Technical Support & SLA](/technical-support-sla). Security findings go to [${brand.securityEmail}](mailto:${brand.securityEmail}).`,
        },
      ],
    },
  ],
};
