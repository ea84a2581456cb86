/**
 * The one route table. The web router, the breadcrumb, the documentation sidebar, the
 * prerenderer and the server's 404 decision all read it, so a page exists in exactly one place.
 */
import { brand, pageTitle } from './brand';

export type RouteKind = 'home' | 'marketing' | 'doc' | 'data-room' | 'auth' | 'app';

export type DocGroup = 'Platform Overview' | 'Technical Documentation' | 'Security & Compliance';

export interface RouteEntry {
  /**
   * The address. App pages may name parameters (`/app/courses/:courseId`); each is one path
   * segment holding a UUID, so `/app/courses/anything-else` is not a page and answers 404.
   */
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
    description: `What runs in the ${brand.product} beta of August 2025, and what is planned.`,
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
  // The learning app: signed-in screens under /app (decision 0110). Rendered in the browser
  // only; the app shell sends a visitor without a session to /login and back.
  {
    path: '/app',
    label: 'Dashboard',
    section: 'Learning',
    title: pageTitle('Dashboard'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/courses',
    label: 'Courses',
    section: 'Learning',
    title: pageTitle('Courses'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/courses/:courseId',
    label: 'Course',
    section: 'Courses',
    title: pageTitle('Course'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/courses/:courseId/lessons/:lessonId',
    label: 'Lesson',
    section: 'Courses',
    title: pageTitle('Lesson'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/courses/:courseId/quizzes/:assessmentId',
    label: 'Quiz',
    section: 'Courses',
    title: pageTitle('Quiz'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/courses/:courseId/discussion',
    label: 'Discussion',
    section: 'Courses',
    title: pageTitle('Discussion'),
    kind: 'app',
    prerender: false,
  },
  // The instructor's course editor (decision 0120): courses they teach, their modules,
  // lessons, question banks and quizzes.
  {
    path: '/app/course-editor',
    label: 'Course Editor',
    section: 'Teaching',
    title: pageTitle('Course Editor'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/new',
    label: 'New Course',
    section: 'Teaching',
    title: pageTitle('New Course'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId',
    label: 'Edit Course',
    section: 'Teaching',
    title: pageTitle('Edit Course'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId/modules/:moduleId',
    label: 'Question Bank',
    section: 'Teaching',
    title: pageTitle('Question Bank'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId/modules/:moduleId/lessons/new',
    label: 'New Lesson',
    section: 'Teaching',
    title: pageTitle('New Lesson'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId/lessons/:lessonId',
    label: 'Edit Lesson',
    section: 'Teaching',
    title: pageTitle('Edit Lesson'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId/modules/:moduleId/questions/new',
    label: 'New Question',
    section: 'Teaching',
    title: pageTitle('New Question'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId/questions/:questionId',
    label: 'Edit Question',
    section: 'Teaching',
    title: pageTitle('Edit Question'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId/modules/:moduleId/quizzes/new',
    label: 'New Quiz',
    section: 'Teaching',
    title: pageTitle('New Quiz'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/course-editor/:courseId/quizzes/:assessmentId',
    label: 'Edit Quiz',
    section: 'Teaching',
    title: pageTitle('Edit Quiz'),
    kind: 'app',
    prerender: false,
  },
  // The organization owner's screens (decision 0141).
  {
    path: '/app/owner/boards',
    label: 'Boards',
    section: 'Organization',
    title: pageTitle('Boards'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/owner/boards/:boardId',
    label: 'Board',
    section: 'Organization',
    title: pageTitle('Board'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/owner/distribution',
    label: 'Course distribution',
    section: 'Organization',
    title: pageTitle('Course distribution'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/owner/people',
    label: 'All users',
    section: 'Organization',
    title: pageTitle('All users'),
    kind: 'app',
    prerender: false,
  },
  // The organization admin's people and enrolments (decision 0130).
  {
    path: '/app/org/users',
    label: 'Users',
    section: 'Organization',
    title: pageTitle('Users'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/org/enrolments',
    label: 'Enrolments',
    section: 'Organization',
    title: pageTitle('Enrolments'),
    kind: 'app',
    prerender: false,
  },
  // The organization admin's analytics, thresholds, reports and settings (decisions 0135-0136).
  {
    path: '/app/org/analytics',
    label: 'Analytics',
    section: 'Organization',
    title: pageTitle('Analytics'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/org/thresholds',
    label: 'Thresholds',
    section: 'Organization',
    title: pageTitle('Thresholds'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/org/reports',
    label: 'Reports',
    section: 'Organization',
    title: pageTitle('Reports'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/org/reports/print',
    label: 'Printable report',
    section: 'Reports',
    title: pageTitle('Printable report'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/org/settings',
    label: 'Organization settings',
    section: 'Organization',
    title: pageTitle('Organization settings'),
    kind: 'app',
    prerender: false,
  },
  // The instructor's teaching screens (decision 0125).
  {
    path: '/app/teaching',
    label: 'Teaching',
    section: 'Teaching',
    title: pageTitle('Teaching'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/teaching/courses/:courseId',
    label: 'Learner progress',
    section: 'Teaching',
    title: pageTitle('Learner progress'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/teaching/courses/:courseId/assignments',
    label: 'Assignments',
    section: 'Teaching',
    title: pageTitle('Assignments'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/teaching/grading',
    label: 'Grading',
    section: 'Teaching',
    title: pageTitle('Grading'),
    kind: 'app',
    prerender: false,
  },
  {
    path: '/app/teaching/grading/:attemptId',
    label: 'Grade an attempt',
    section: 'Teaching',
    title: pageTitle('Grade an attempt'),
    kind: 'app',
    prerender: false,
  },
];

const UUID_SEGMENT = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/app/courses/:courseId` → a pattern with one named UUID group per parameter. */
function compilePattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? `(?<${segment.slice(1)}>${UUID_SEGMENT})` : escapeRegExp(segment),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}

const hasParameters = (route: RouteEntry) => route.path.includes('/:');
const byPath = new Map(
  routes.filter((route) => !hasParameters(route)).map((route) => [route.path, route]),
);
const patterns = routes
  .filter(hasParameters)
  .map((route) => ({ route, pattern: compilePattern(route.path) }));

/** Normalises a pathname (drops a trailing slash, except for "/"). */
export function normalizePath(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname;
}

export interface RouteMatch {
  route: RouteEntry;
  /** The path's parameters by name (empty for a route without any). */
  params: Record<string, string>;
}

export function matchRoute(pathname: string): RouteMatch | undefined {
  const path = normalizePath(pathname);
  const exact = byPath.get(path);
  if (exact) return { route: exact, params: {} };
  for (const { route, pattern } of patterns) {
    const match = pattern.exec(path);
    if (match) return { route, params: { ...match.groups } };
  }
  return undefined;
}

export function findRoute(pathname: string): RouteEntry | undefined {
  return matchRoute(pathname)?.route;
}

export function isKnownRoute(pathname: string): boolean {
  return matchRoute(pathname) !== undefined;
}

/** A route's address with its parameters filled in: `routePath('/app/courses/:courseId', …)`. */
export function routePath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`routePath: ${path} needs the parameter ${name}`);
    return encodeURIComponent(value);
  });
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
