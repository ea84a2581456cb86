/**
 * The one route table. The web router, the breadcrumb, the documentation sidebar, the
 * prerenderer and the server's 404 decision all read it, so a page exists in exactly one place.
 */
import { brand, pageTitle } from './brand';

export type RouteKind = 'home' | 'marketing' | 'doc' | 'data-room' | 'auth';

export type DocGroup = 'Platform Overview' | 'Technical Documentation' | 'Security & Compliance';

export interface RouteEntry {
  path: string;
  /** Page label: last breadcrumb item and sidebar entry. */
  label: string;
  /** Section label: middle breadcrumb item. */
  section: string;
  /** The browser title this page sets. */
  title: string;
  /** Meta description; pages that have one also get a canonical link. */
  description?: string;
  kind: RouteKind;
  /** Sidebar group for documentation navigation, if listed there. */
  group?: DocGroup;
  /** Prerender the page's HTML at build time (public, no per-visitor content). */
  prerender: boolean;
}

const adaptPath = `/${brand.initials.toLowerCase()}-adapt`;

export const routes: readonly RouteEntry[] = [
  {
    path: '/',
    label: 'Home',
    section: 'Home',
    title: `${brand.product} — ${brand.tagline}`,
    description: `${brand.product} is a university learning platform with a Socratic AI study coach, ${brand.adaptTool} for accessible course content, and enterprise-grade security.`,
    kind: 'home',
    prerender: true,
  },
  {
    path: '/platform-overview',
    label: 'Platform Overview',
    section: 'Platform Overview',
    title: pageTitle('Platform Overview'),
    description: `Dual environments, three roles and the full feature suite of ${brand.product}: course library, AI study coach, notes, flashcards, goals and analytics.`,
    kind: 'marketing',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: '/ai-study-coach',
    label: brand.coach,
    section: 'Platform Overview',
    title: pageTitle(brand.coach),
    description: `${brand.product}'s AI study coach tutors with the Socratic method: guiding questions, hints and refreshers instead of answers.`,
    kind: 'marketing',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: adaptPath,
    label: brand.adaptTool,
    section: 'Platform Overview',
    title: pageTitle(brand.adaptTool),
    description: `${brand.adaptTool} turns SCORM packages, PDF, DOCX and text into accessible lessons, quizzes and audio, and delivers them to your LMS.`,
    kind: 'marketing',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: '/release-notes',
    label: 'Release Notes',
    section: 'Platform Overview',
    title: pageTitle('Release Notes'),
    description: `What shipped in the ${brand.product} beta release of August 2025.`,
    kind: 'doc',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: '/system-architecture',
    label: 'System Architecture',
    section: 'Technical Documentation',
    title: pageTitle('System Architecture'),
    description: `How ${brand.product} is built: web app, edge functions, auth, database and storage, and where GDPR deletion and export run.`,
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/build-specs',
    label: 'Build Specs',
    section: 'Technical Documentation',
    title: pageTitle('Build Specs'),
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/data-quotas',
    label: 'Data & Quotas',
    section: 'Technical Documentation',
    title: pageTitle('Data & Quotas'),
    description: `Usage quotas per subscription tier, how usage is tracked and when quotas reset in ${brand.product}.`,
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/api-access',
    label: 'API Access',
    section: 'Technical Documentation',
    title: pageTitle('API Access'),
    description: `Server-to-server access to ${brand.product}'s REST API with the service role key: users, enrolments, progress, assessments and export.`,
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/sso-integration',
    label: 'SSO Integration',
    section: 'Technical Documentation',
    title: pageTitle('SSO Integration'),
    description: `Enterprise single sign-on for ${brand.product} with SAML 2.0 and OpenID Connect: attributes, assertion consumer service and set-up steps.`,
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/developer-build-security',
    label: 'Developer Build & Security',
    section: 'Technical Documentation',
    title: pageTitle('Developer Build & Security'),
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/technical-support-sla',
    label: 'Technical Support & SLA',
    section: 'Technical Documentation',
    title: pageTitle('Technical Support & SLA'),
    description: `${brand.product} support channels, first-response targets by priority and the 99.9% monthly uptime commitment.`,
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/security-compliance',
    label: 'Security & Compliance',
    section: 'Security & Compliance',
    title: pageTitle('Security & Compliance'),
    description: `${brand.product}'s security controls and compliance programme: GDPR, FERPA, HIPAA, row-level security and audit logging.`,
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/security-notes',
    label: 'Security Notes',
    section: 'Security & Compliance',
    title: pageTitle('Security Notes'),
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/user-roles-permissions',
    label: 'User Roles & Permissions',
    section: 'Security & Compliance',
    title: pageTitle('User Roles & Permissions'),
    description: `The four standard roles in ${brand.product} — Student, Instructor, Org Admin and Compliance Officer — and what each may do.`,
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/privacy-gdpr',
    label: 'Privacy Policy & GDPR',
    section: 'Security & Compliance',
    title: pageTitle('Privacy Policy & GDPR'),
    description: `How ${brand.company} collects, uses and protects personal data, and how to exercise your GDPR rights. Last updated October 3, 2025.`,
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/data-breach-response',
    label: 'Data Breach Response',
    section: 'Security & Compliance',
    title: pageTitle('Data Breach Response'),
    description: `${brand.product}'s four-phase data breach response plan and notification deadlines under GDPR and HIPAA. Effective October 3, 2025.`,
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/data-encryption',
    label: 'Data Encryption',
    section: 'Security & Compliance',
    title: pageTitle('Data Encryption'),
    description: `Encryption in ${brand.product}: TLS 1.3 in transit, AES-256 at rest, keys held in a cloud key management service.`,
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/data-hosting',
    label: 'Data Hosting',
    section: 'Security & Compliance',
    title: pageTitle('Data Hosting'),
    description: `Where ${brand.product} stores data: one primary region, us-east-1 (Northern Virginia), with no secondary storage location.`,
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/security-audits',
    label: 'Security Audits',
    section: 'Security & Compliance',
    title: pageTitle('Security Audits'),
    description: `Vendor certifications, ${brand.product}'s certification roadmap (SOC 2 Type II, ISO 27001, FERPA) and annual penetration testing.`,
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/data-room',
    label: 'Data Room',
    section: 'Investors',
    title: pageTitle('Due Diligence Data Room'),
    kind: 'data-room',
    prerender: false,
  },
  // Account screens render per visitor in the browser (session state), so none is prerendered.
  {
    path: '/login',
    label: 'Sign In',
    section: 'Account',
    title: pageTitle('Sign In'),
    kind: 'auth',
    prerender: false,
  },
  {
    path: '/signup',
    label: 'Create Account',
    section: 'Account',
    title: pageTitle('Create Account'),
    kind: 'auth',
    prerender: false,
  },
  {
    path: '/forgot-password',
    label: 'Forgot Password',
    section: 'Account',
    title: pageTitle('Forgot Password'),
    kind: 'auth',
    prerender: false,
  },
  {
    path: '/reset-password',
    label: 'Reset Password',
    section: 'Account',
    title: pageTitle('Reset Password'),
    kind: 'auth',
    prerender: false,
  },
  {
    path: '/auth/confirm',
    label: 'Confirm Email',
    section: 'Account',
    title: pageTitle('Confirm Email'),
    kind: 'auth',
    prerender: false,
  },
  {
    path: '/account',
    label: 'Account Settings',
    section: 'Account',
    title: pageTitle('Account Settings'),
    kind: 'auth',
    prerender: false,
  },
];

const byPath = new Map(routes.map((route) => [route.path, route]));

/** Normalises a pathname (drops a trailing slash, except for "/"). */
export function normalizePath(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname;
}

export function findRoute(pathname: string): RouteEntry | undefined {
  return byPath.get(normalizePath(pathname));
}

export function isKnownRoute(pathname: string): boolean {
  return byPath.has(normalizePath(pathname));
}

export const docGroups: readonly DocGroup[] = [
  'Platform Overview',
  'Technical Documentation',
  'Security & Compliance',
];

export function routesInGroup(group: DocGroup): RouteEntry[] {
  return routes.filter((route) => route.group === group);
}

export const notFoundTitle = pageTitle('Page not found');
