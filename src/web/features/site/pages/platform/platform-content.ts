/**
 * Words and facts of the Platform Overview page, from the specification's feature lists,
 * roles and architecture. The learning features are named here as the spec names them.
 */
import { brand } from '@common/brand';
import {
  BookOpen,
  BrainCircuit,
  Building2,
  ChartColumn,
  ChartLine,
  Clock,
  Database,
  EyeOff,
  FileSearch,
  Fingerprint,
  GraduationCap,
  KeyRound,
  Layers,
  LayoutDashboard,
  LifeBuoy,
  Monitor,
  Network,
  NotebookPen,
  Radio,
  Settings,
  ShieldCheck,
  SlidersHorizontal,
  Trophy,
  User,
  UserCog,
  Users,
  WandSparkles,
  Workflow,
} from 'lucide-react';
import type { FeatureItem, PageLink } from '../shared/types';

const adaptPath = `/${brand.initials.toLowerCase()}-adapt`;

export const overviewHero = {
  eyebrow: brand.headerTitle,
  title: 'Platform Overview',
  tagline: 'One platform for every learner and every institution.',
  lead: `${brand.product} runs in two environments — Personal mode for individual learners and Organization mode for institutions — with three roles, a full learning feature suite and analytics that show where students need help.`,
  badges: ['Personal mode', 'Organization mode', 'Three roles'],
} as const;

export interface Environment {
  name: string;
  audience: string;
  icon: FeatureItem['icon'];
  summary: string;
  points: string[];
}

export const environments: Environment[] = [
  {
    name: 'Personal mode',
    audience: 'For individual learners',
    icon: User,
    summary:
      'A complete study environment for one learner: their own courses, study tools and a coach that changes its approach when they are stuck.',
    points: [
      'Home dashboard, course library and notes in one place',
      `${brand.coach} for guided, Socratic practice`,
      'Goals, XP and levels to keep momentum',
      'Activity analytics on their own progress',
    ],
  },
  {
    name: 'Organization mode',
    audience: 'For universities and institutions',
    icon: Building2,
    summary:
      'Everything in Personal mode, run at institutional scale, with top-level administrators overseeing every board.',
    points: [
      'Central board management',
      'Global user oversight',
      'Aggregated analytics across boards',
      'Content distribution across boards',
    ],
  },
];

export interface RoleCard {
  name: string;
  alsoKnownAs?: string;
  icon: FeatureItem['icon'];
  inherits?: string;
  rights: string[];
}

export const roles: RoleCard[] = [
  {
    name: 'Student',
    icon: GraduationCap,
    rights: [
      'Access assigned courses',
      'View own progress and results',
      'Take part in course discussions',
      'Manage own profile settings',
    ],
  },
  {
    name: 'Instructor',
    icon: Users,
    inherits: 'Everything a student can do, plus:',
    rights: [
      'View the progress of all students in assigned courses',
      'Create and manage course content and assignments',
      'Grade assessments and give feedback',
      'View analytics and set goals',
    ],
  },
  {
    name: 'Organization Owner',
    alsoKnownAs: 'Org Admin',
    icon: UserCog,
    inherits: 'Everything an instructor can do, plus:',
    rights: [
      'Create, update and deactivate users; assign roles',
      'Manage enrolments',
      'View organisation-wide analytics and reports',
      'Configure organisation settings and control the subscription',
    ],
  },
];

export const rolesNote = {
  text: 'A fourth standard role, Compliance Officer, has read-only access to audit logs, data access patterns and security events — never to user data or course content. Enterprise clients can request custom roles.',
  link: { to: '/user-roles-permissions', label: 'User Roles & Permissions' } satisfies PageLink,
};

export const learnerFeatures: FeatureItem[] = [
  {
    title: 'Home dashboard',
    text: 'The starting point of every session: courses, goals and recent activity at a glance.',
    icon: LayoutDashboard,
  },
  {
    title: 'Course library',
    text: 'Course material in PDF and ePub, organised by course.',
    icon: BookOpen,
  },
  {
    title: brand.coach,
    text: 'A Socratic tutor that guides with questions, hints and refreshers.',
    icon: BrainCircuit,
    link: { to: '/ai-study-coach', label: 'How it works' },
  },
  {
    title: 'Notes and flashcards',
    text: 'Write notes while studying and review with flashcards.',
    icon: NotebookPen,
  },
  {
    title: 'Goals and gamification',
    text: 'Set goals, earn XP and level up as you learn.',
    icon: Trophy,
  },
  {
    title: 'Activity analytics',
    text: 'See your own study activity and progress over time.',
    icon: ChartColumn,
  },
  {
    title: 'Live hub',
    text: 'What is happening across your courses right now.',
    icon: Radio,
  },
  {
    title: 'Settings',
    text: 'Profile, preferences and privacy choices in one place.',
    icon: Settings,
  },
];

export const adminFeatures: FeatureItem[] = [
  {
    title: 'User management',
    text: 'Create, update and deactivate users and assign their roles.',
    icon: Users,
  },
  {
    title: 'Course management',
    text: 'Create courses, manage their content and enrol learners.',
    icon: BookOpen,
  },
  {
    title: 'Module manager',
    text: 'Organise each course into modules and keep them up to date.',
    icon: Layers,
  },
  {
    title: 'Analytics',
    text: 'Progress and activity across courses and the whole organisation.',
    icon: ChartLine,
  },
  {
    title: 'Thresholds',
    text: 'Set the thresholds that decide when a learner needs attention.',
    icon: SlidersHorizontal,
  },
  {
    title: 'Reporting',
    text: 'Reports on organisation-wide results for faculty and leadership.',
    icon: FileSearch,
  },
];

export const insights: FeatureItem[] = [
  {
    title: 'For learners',
    text: 'Activity analytics, goals and XP show each student how their study is going.',
    icon: ChartColumn,
  },
  {
    title: 'For instructors',
    text: 'The progress of every student in an assigned course, with assessment results to grade and feed back on.',
    icon: Users,
  },
  {
    title: 'For the institution',
    text: 'Organisation-wide analytics and reports, aggregated across boards in Organization mode.',
    icon: Building2,
  },
  {
    title: 'Anonymized struggle insights',
    text: `Where students struggle with the ${brand.coach}, shown to institutions without exposing who.`,
    icon: EyeOff,
  },
];

export const whyChoose: FeatureItem[] = [
  {
    title: 'A coach that teaches',
    text: 'Guiding questions instead of answers build real understanding, not copy-paste.',
    icon: BrainCircuit,
    link: { to: '/ai-study-coach', label: brand.coach },
  },
  {
    title: 'Content for every learner',
    text: `${brand.adaptTool} turns existing course material into accessible, neurodiverse-friendly lessons.`,
    icon: WandSparkles,
    link: { to: adaptPath, label: brand.adaptTool },
  },
  {
    title: 'Enterprise-grade security',
    text: 'TLS 1.3 and AES-256, row-level security, audit logging and a published certification roadmap.',
    icon: ShieldCheck,
    link: { to: '/security-compliance', label: 'Security & Compliance' },
  },
  {
    title: 'Single sign-on',
    text: 'Students and staff sign in with their university account through SAML 2.0 or OpenID Connect.',
    icon: KeyRound,
    link: { to: '/sso-integration', label: 'SSO Integration' },
  },
  {
    title: '99.9% monthly uptime',
    text: 'Committed in the SLA, with first responses to urgent issues within 1 hour.',
    icon: Clock,
    link: { to: '/technical-support-sla', label: 'Support & SLA' },
  },
  {
    title: 'Support 24/7',
    text: 'Email support around the clock; a dedicated account manager on the Enterprise plan.',
    icon: LifeBuoy,
  },
];

export const architecture: FeatureItem[] = [
  {
    title: 'Responsive web app',
    text: 'Runs in any modern browser on desktop and mobile, installs as an app, opens visited pages offline, and keeps chosen lessons, flashcard reviews and notes for offline study.',
    icon: Monitor,
  },
  {
    title: 'Managed backend platform',
    text: 'Auth, database API, storage and edge functions behind one endpoint.',
    icon: Network,
  },
  {
    title: 'Email/password and SSO',
    text: 'Email verification, re-authentication for password changes, and enterprise single sign-on.',
    icon: Fingerprint,
  },
  {
    title: 'Row-level security',
    text: 'Every request runs under the caller’s role; the database decides what each role may read or change.',
    icon: Database,
  },
  {
    title: 'Edge functions',
    text: 'Server-side logic runs in edge functions; AI coaching, subscription checks and GDPR export and deletion will run there when they land.',
    icon: Workflow,
  },
];

export const architectureLinks: PageLink[] = [
  { to: '/system-architecture', label: 'System Architecture' },
  { to: '/build-specs', label: 'Build Specs' },
  { to: '/api-access', label: 'API Access' },
];

/** Section titles and intros, in page order. */
export const overviewSections = {
  environments: {
    title: 'Dual environments',
    intro:
      'Start with one learner, grow to a whole university: both environments run on the same platform.',
  },
  roles: {
    title: 'Three roles',
    intro: 'Each role builds on the one before, so permissions stay simple to reason about.',
  },
  features: {
    title: 'Feature suite',
    intro: 'What learners use every day, and what administrators use to run courses.',
  },
  insights: {
    title: 'Insights',
    intro: "Analytics at every level, from one student's progress to the whole organisation.",
  },
  whyChoose: { title: `Why choose ${brand.product}` },
  architecture: {
    title: 'Architecture',
    intro: 'A web app on a managed backend platform, secured in the database itself.',
  },
} as const;

export const overviewActions = {
  primary: { href: '#features', label: 'See the feature suite' },
  secondary: { to: '/ai-study-coach', label: `Meet the ${brand.coach}` },
} as const;
