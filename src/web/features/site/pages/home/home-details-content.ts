/**
 * Words and facts of the home page's sections below the analytics (architecture, stack, AI,
 * features, benefits, security), loaded with those sections when the visitor nears them
 * (decision 0194). Every statement comes from the product specification or the architecture.
 */
import { brand } from '@common/brand';
import {
  BookOpen,
  BrainCircuit,
  ChartColumn,
  ClipboardCheck,
  Code,
  Database,
  FileLock,
  FileSearch,
  Fingerprint,
  HardDrive,
  KeyRound,
  Layers,
  LayoutDashboard,
  LifeBuoy,
  Lock,
  MapPin,
  Monitor,
  NotebookPen,
  Radio,
  Server,
  Settings,
  ShieldAlert,
  ShieldCheck,
  SlidersHorizontal,
  Trophy,
  Users,
  WandSparkles,
  Workflow,
} from 'lucide-react';
import type { FeatureItem, PageLink } from '../shared/types';

const adaptPath = `/${brand.initials.toLowerCase()}-adapt`;

export interface ArchitectureLayer {
  name: string;
  role: string;
  icon: FeatureItem['icon'];
}

export const systemArchitecture = {
  intro: `${brand.product} is a web app on a managed backend platform. The browser talks to one backend that provides authentication, the database API, file storage and edge functions; access to data is decided in the database by row-level security.`,
  client: {
    name: 'Web app',
    role: 'Responsive web app for learners, instructors and administrators, on desktop and mobile.',
    icon: Monitor,
  } satisfies ArchitectureLayer,
  services: [
    {
      name: 'Edge functions',
      role: 'Server-side logic such as the study coach, the data room, hosting analytics, GDPR export and subscriptions.',
      icon: Workflow,
    },
    {
      name: 'Auth',
      role: 'Email/password and OpenID Connect sign-in, two-factor (TOTP), refresh-token rotation.',
      icon: KeyRound,
    },
    {
      name: 'Database',
      role: 'PostgreSQL with row-level security, daily backups and point-in-time recovery within 7 days.',
      icon: Database,
    },
    {
      name: 'Storage',
      role: 'Private file buckets for course material and documents.',
      icon: HardDrive,
    },
  ] satisfies ArchitectureLayer[],
  hosting: 'Hosted in one primary region, us-east-1 (Northern Virginia).',
  links: [
    { to: '/system-architecture', label: 'System Architecture' },
    { to: '/data-hosting', label: 'Data Hosting' },
  ] satisfies PageLink[],
};

export interface StackGroup {
  name: string;
  icon: FeatureItem['icon'];
  items: string[];
}

export const technologyStack = {
  intro:
    'Widely used, open technologies throughout, so your IT team can review, integrate and operate the platform with tools it already knows.',
  groups: [
    {
      name: 'Front end',
      icon: Monitor,
      items: [
        'React single-page app, TypeScript',
        'Responsive on phones and desktops; installs as an app whose kept lessons, flashcard reviews and notes work offline',
        'Tailwind CSS design system with accessible components',
      ],
    },
    {
      name: 'Backend',
      icon: Server,
      items: [
        'Node.js gateway: auth, REST and RPC, storage, edge functions',
        'Wire-compatible with the Supabase client libraries',
        'Background jobs on the same database',
      ],
    },
    {
      name: 'Data',
      icon: Database,
      items: [
        'PostgreSQL with row-level security',
        'Ordered, checksummed schema migrations',
        'Daily backups, point-in-time recovery within 7 days',
      ],
    },
    {
      name: 'Integration',
      icon: Code,
      items: [
        'REST API for server-to-server access, 100 requests per second',
        'Single sign-on with SAML 2.0 and OpenID Connect',
        'SCORM 1.2 and 2004 export and LMS delivery by signed webhook',
      ],
    },
  ] satisfies StackGroup[],
  links: [
    { to: '/build-specs', label: 'Build Specs' },
    { to: '/developer-build-security', label: 'Developer Build & Security' },
    { to: '/api-access', label: 'API Access' },
  ] satisfies PageLink[],
};

export const aiIntegration = {
  intro: `Two AI products share one platform: the ${brand.coach} helps each student learn, and ${brand.adaptTool} helps each educator reach every student.`,
  products: [
    {
      title: brand.coach,
      text: 'Tutors with the Socratic method: guiding questions instead of answers, a different approach after a wrong answer, and a foundational refresher when a student keeps struggling.',
      points: ['Study Session, Quiz and General Knowledge modes', 'Help on request, at any point'],
      icon: BrainCircuit,
      link: { to: '/ai-study-coach', label: `How the ${brand.coach} works` },
    },
    {
      title: brand.adaptTool,
      text: 'Turns existing course material or a typed prompt into accessible, adaptive, neurodiverse-friendly lessons, reviewed by people before delivery.',
      points: [
        'Four-step pipeline ending in a bias and clarity review',
        'Exports SCORM JSON, Markdown, HTML and MP3 audio',
      ],
      icon: WandSparkles,
      link: { to: adaptPath, label: `Inside ${brand.adaptTool}` },
    },
  ],
  models: [
    {
      name: 'Personalised coaching',
      text: 'A mid-size model from one AI provider, with optional retrieval from course material.',
    },
    {
      name: 'General coaching',
      text: 'A small, fast model from a second provider, with a larger model of that provider as fallback.',
    },
    {
      name: 'Voice',
      text: 'A voice feature from a speech provider is planned, not live.',
      tag: 'Planned',
    },
  ],
};

export const platformFeatures = {
  intro:
    'Everything a student needs to study, and everything an institution needs to run courses at scale.',
  learner: [
    { title: 'Home dashboard', icon: LayoutDashboard },
    { title: 'Course library (PDF and ePub)', icon: BookOpen },
    { title: brand.coach, icon: BrainCircuit },
    { title: 'Notes and flashcards', icon: NotebookPen },
    { title: 'Goals, XP and levels', icon: Trophy },
    { title: 'Activity analytics', icon: ChartColumn },
    { title: 'Live hub', icon: Radio },
    { title: 'Settings', icon: Settings },
  ],
  admin: [
    { title: 'User management', icon: Users },
    { title: 'Course management', icon: BookOpen },
    { title: 'Module manager', icon: Layers },
    { title: 'Analytics', icon: ChartColumn },
    { title: 'Thresholds', icon: SlidersHorizontal },
    { title: 'Reporting', icon: FileSearch },
  ],
  organization:
    'Organization mode adds central board management, global user oversight, aggregated analytics and content distribution across boards for top-level administrators.',
  links: [{ to: '/platform-overview', label: 'Platform Overview' }] satisfies PageLink[],
};

export const technicalBenefits = {
  intro: 'Built to be run by a university IT department, not just demonstrated.',
  items: [
    {
      title: 'Modular design',
      text: 'Each capability — coaching, content adaptation, analytics, data room — is its own module with a clear boundary, so one can change or be replaced without touching the rest.',
      icon: Layers,
    },
    {
      title: '99.9% monthly uptime commitment',
      text: 'Measured per month, excluding scheduled maintenance announced at least 48 hours ahead.',
      icon: ShieldCheck,
      link: { to: '/technical-support-sla', label: 'Support & SLA' },
    },
    {
      title: 'Recoverable data',
      text: 'Daily backups and point-in-time recovery within 7 days.',
      icon: Database,
      link: { to: '/system-architecture', label: 'System Architecture' },
    },
    {
      title: 'Open integration',
      text: 'A documented REST API for server-to-server access with a rate limit of 100 requests per second per key.',
      icon: Code,
      link: { to: '/api-access', label: 'API Access' },
    },
    {
      title: 'Fair, predictable usage',
      text: 'A limit of 100 requests per second per key, and a monthly allowance of study-coach messages per account, raised by a paid subscription.',
      icon: SlidersHorizontal,
      link: { to: '/data-quotas', label: 'Data & Quotas' },
    },
    {
      title: 'Support around the clock',
      text: 'Email support 24/7; urgent issues get a first response within 1 hour.',
      icon: LifeBuoy,
      link: { to: '/technical-support-sla', label: 'Response targets' },
    },
  ] satisfies FeatureItem[],
};

export const securityCompliance = {
  intro:
    'Security is designed in, documented page by page, and backed by a public certification roadmap.',
  items: [
    {
      title: 'Encryption',
      text: 'TLS 1.3 in transit and AES-256 at rest, with keys held in a cloud key management service.',
      icon: Lock,
      link: { to: '/data-encryption', label: 'Data Encryption' },
    },
    {
      title: 'Role-based access',
      text: 'Four standard roles — Student, Instructor, Org Admin, Compliance Officer — enforced by row-level security.',
      icon: Fingerprint,
      link: { to: '/user-roles-permissions', label: 'User Roles & Permissions' },
    },
    {
      title: 'Privacy and GDPR',
      text: 'Data subject requests answered within 30 days; consent managed per category: essential, analytics, marketing, functional.',
      icon: FileLock,
      link: { to: '/privacy-gdpr', label: 'Privacy Policy & GDPR' },
    },
    {
      title: 'Breach response',
      text: 'A four-phase plan with notification within 72 hours under GDPR and 60 days under HIPAA.',
      icon: ShieldAlert,
      link: { to: '/data-breach-response', label: 'Data Breach Response' },
    },
    {
      title: 'Data residency',
      text: 'One primary region, us-east-1 (Northern Virginia), with no secondary storage location.',
      icon: MapPin,
      link: { to: '/data-hosting', label: 'Data Hosting' },
    },
    {
      title: 'Audits and certification',
      text: 'Annual penetration test, latest August 2025. SOC 2 Type II in progress, ISO 27001 planned.',
      icon: ClipboardCheck,
      link: { to: '/security-audits', label: 'Security Audits' },
    },
  ] satisfies FeatureItem[],
  frameworks: ['GDPR', 'FERPA', 'HIPAA'],
  links: [
    { to: '/security-compliance', label: 'Security & Compliance' },
    { to: '/security-notes', label: 'Security Notes' },
  ] satisfies PageLink[],
};
