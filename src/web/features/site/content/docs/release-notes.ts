import { brand } from '@common/brand';
import { adaptPath } from '@common/site-routes';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/release-notes',
  heading: 'Release Notes',
  lead: `Beta 2025-08 is the first beta of ${brand.product}. This page lists what runs in this build and, separately, what is planned: nothing below is described as available before you can use it.`,
  meta: 'Beta 2025-08 · Released August 2025',
  badges: ['Beta 2025-08', 'Sign-up by coupon'],
  icon: 'file',
  sections: [
    {
      id: 'about-this-release',
      heading: 'About this release',
      blocks: [
        {
          type: 'paragraph',
          text: `This build brings together the public site and its documentation, the investor data room, accounts with two-factor sign-in, the learning app for learners, instructors and organisation administrators, and a backend that speaks the Supabase protocols over PostgreSQL with row-level security. The technical design is described in [System Architecture](/system-architecture) and [Build Specs](/build-specs).`,
        },
        {
          type: 'paragraph',
          text: 'People sign in with email and password, or through their institution: SAML single sign-on set up by an organization admin, or an OpenID Connect provider; see [SSO Integration](/sso-integration).',
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Beta software',
          text: 'This is a beta: behaviour may still change before general availability. Changes that affect integrations or data handling are announced in these release notes before they ship.',
        },
      ],
    },
    {
      id: 'what-runs',
      heading: 'What runs in this build',
      blocks: [
        {
          type: 'cards',
          items: [
            {
              title: 'Accounts and two-factor sign-in',
              icon: 'key',
              text: '[Create an account](/signup) and confirm your email address, [sign in](/login), reset a forgotten password, and in [Account Settings](/account) turn on two-factor authentication with an authenticator app (TOTP), keep ten one-time recovery codes and end your other sessions.',
            },
            {
              title: 'Learning app',
              icon: 'graduation',
              text: 'A [dashboard](/app) that continues where you left off, the [course library](/app/courses) with search and enrolment, lessons (Markdown, video, PDF and ePub downloads), module quizzes graded by the server, and a discussion per course.',
            },
            {
              title: 'Study tools',
              icon: 'graduation',
              text: 'The [library](/app/library) with full-text search across lessons and extracted book text, a PDF reader that opens at a hit and keeps your page and highlights, [notes](/app/notes) in Markdown, [flashcards](/app/flashcards) scheduled with FSRS (import and export as CSV or Anki text, review statistics), and [progress](/app/progress) with goals, XP, levels and streaks.',
            },
            {
              title: 'Installable app and offline study',
              icon: 'cloud',
              text: 'The app installs from the browser. On [Offline study](/app/offline) a learner chooses courses to keep on the device: their lessons’ text, the flashcards due within a week and their notes then open offline, and reviews and notes made offline are sent when the connection returns.',
            },
            {
              title: 'Live hub',
              icon: 'users',
              text: 'A live room for each course, opened from its page in the [course library](/app/courses): who is here, a chat instructors moderate, the instructor’s live poll or question with results as they come in, and a raise-hand queue.',
            },
            {
              title: brand.coach,
              icon: 'chart',
              text: 'The [study coach](/app/coach): Socratic tutoring in Study Session, Quiz and General Knowledge modes, on the built-in engine or the configured models, within a monthly allowance of messages.',
            },
            {
              title: brand.adaptTool,
              icon: 'file',
              text: `[${brand.adaptTool}](/app/adapt) turns PDF, DOCX, text and SCORM material into accessible lessons with a quiz, reviewed and approved before export as SCORM, HTML, Markdown or MP3.`,
            },
            {
              title: 'Privacy and compliance',
              icon: 'shield',
              text: 'Consent choices and data requests in [Privacy](/app/privacy) for everyone, and the [compliance console](/app/compliance) with the audit log, incidents and retention.',
            },
            {
              title: 'Teaching',
              icon: 'book',
              text: 'For instructors: [their courses](/app/teaching), grading, and the [course editor](/app/course-editor) for modules, lessons, questions and quizzes.',
            },
            {
              title: 'Organization mode',
              icon: 'users',
              text: 'For the organisation owner and administrators: [boards](/app/owner/boards), [people](/app/owner/people), [content distribution across boards](/app/owner/distribution), [analytics](/app/org/analytics), [reports](/app/org/reports) and [settings](/app/org/settings).',
            },
            {
              title: 'Investor data room',
              icon: 'lock',
              text: 'The PIN-gated [data room](/data-room) with its document viewer; the PIN is checked by the server.',
            },
            {
              title: 'Platform API',
              icon: 'code',
              text: 'Auth, REST and RPC, storage and functions, compatible with the Supabase client libraries, with a limit of 100 requests per second per key; see [API Access](/api-access).',
            },
            {
              title: 'Security',
              icon: 'shield',
              text: 'Every table with personal data is protected by row-level security per role; see [User Roles & Permissions](/user-roles-permissions).',
            },
          ],
        },
      ],
    },
    {
      id: 'planned',
      heading: 'Planned, not in this build',
      blocks: [
        {
          type: 'paragraph',
          text: `Some of what the [Platform Overview](/platform-overview), [${brand.coach}](/ai-study-coach) and [${brand.adaptTool}](${adaptPath}) pages describe is not part of this build yet:`,
        },
        {
          type: 'list',
          items: [`A voice feature for the ${brand.coach}.`],
        },
      ],
    },
    {
      id: 'access-and-pricing',
      heading: 'Access and pricing',
      blocks: [
        {
          type: 'definitions',
          items: [
            {
              term: 'Sign-up',
              text: 'During the beta, [creating an account](/signup) needs a coupon; the account is then confirmed from the email that follows. A deployment can open sign-up to anyone.',
            },
            {
              term: 'Pricing',
              text: 'The [plans](/app/plans) and their allowances are listed in the app; during the beta no plan is sold and no payment is taken.',
            },
            {
              term: 'Quotas',
              text: 'Each plan has a monthly allowance of study coach messages, and every key has the API limit of 100 requests per second. See [Data & Quotas](/data-quotas).',
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
            '**Admin views** are gated routes inside the same web app. A dedicated admin application is planned after the beta.',
            '**Single hosting region:** all data is stored in one primary region, us-east-1 (Northern Virginia), with no secondary storage location. See [Data Hosting](/data-hosting).',
            '**Certifications** are still on the roadmap: SOC 2 Type II and the FERPA self-assessment are in progress and ISO 27001 is planned. See [Security Audits](/security-audits).',
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
            'Email verification is enabled for every new account, and a password change needs re-authentication; it also signs out your other sessions.',
            'With two-factor authentication on, sign-in asks for a code, and changing your password or email or signing out other sessions needs the second factor. Ten wrong passwords lock an address for 15 minutes.',
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
          text: `Beta participants can reach support by email at [${brand.supportEmail}](mailto:${brand.supportEmail}), around the clock. Response targets are listed in [Technical Support & SLA](/technical-support-sla). Security findings go to [${brand.securityEmail}](mailto:${brand.securityEmail}).`,
        },
      ],
    },
  ],
};
