/**
 * The public site's entries of the route table (home, marketing and documentation pages, the
 * data room, the account screens): everything the always-loaded frame of the public site
 * needs. The learning app's entries are in `app-routes.ts`, loaded with the app's frame.
 */
import { brand, pageTitle } from './brand';
import { routeMatcher, type DocGroup, type RouteEntry } from './route-table';

export const adaptPath = `/${brand.initials.toLowerCase()}-adapt`;

export const siteRoutes: readonly RouteEntry[] = [
  {
    path: '/',
    label: 'Home',
    section: 'Home',
    title: `${brand.product} — ${brand.tagline}`,
    kind: 'home',
    prerender: true,
  },
  {
    path: '/platform-overview',
    label: 'Platform Overview',
    section: 'Platform Overview',
    title: pageTitle('Platform Overview'),
    kind: 'marketing',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: '/ai-study-coach',
    label: brand.coach,
    section: 'Platform Overview',
    title: pageTitle(brand.coach),
    kind: 'marketing',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: adaptPath,
    label: brand.adaptTool,
    section: 'Platform Overview',
    title: pageTitle(brand.adaptTool),
    kind: 'marketing',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: '/release-notes',
    label: 'Release Notes',
    section: 'Platform Overview',
    title: pageTitle('Release Notes'),
    kind: 'doc',
    group: 'Platform Overview',
    prerender: true,
  },
  {
    path: '/system-architecture',
    label: 'System Architecture',
    section: 'Technical Documentation',
    title: pageTitle('System Architecture'),
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
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/api-access',
    label: 'API Access',
    section: 'Technical Documentation',
    title: pageTitle('API Access'),
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/sso-integration',
    label: 'SSO Integration',
    section: 'Technical Documentation',
    title: pageTitle('SSO Integration'),
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
    kind: 'doc',
    group: 'Technical Documentation',
    prerender: true,
  },
  {
    path: '/security-compliance',
    label: 'Security & Compliance',
    section: 'Security & Compliance',
    title: pageTitle('Security & Compliance'),
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
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/privacy-gdpr',
    label: 'Privacy Policy & GDPR',
    section: 'Security & Compliance',
    title: pageTitle('Privacy Policy & GDPR'),
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/data-breach-response',
    label: 'Data Breach Response',
    section: 'Security & Compliance',
    title: pageTitle('Data Breach Response'),
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/data-encryption',
    label: 'Data Encryption',
    section: 'Security & Compliance',
    title: pageTitle('Data Encryption'),
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/data-hosting',
    label: 'Data Hosting',
    section: 'Security & Compliance',
    title: pageTitle('Data Hosting'),
    kind: 'doc',
    group: 'Security & Compliance',
    prerender: true,
  },
  {
    path: '/security-audits',
    label: 'Security Audits',
    section: 'Security & Compliance',
    title: pageTitle('Security Audits'),
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
  // Account screens render per visitor in the browser (session state), so none is prerendered.,
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
  // only; the app shell sends a visitor without a session to /login and back.,
];

export const docGroups: readonly DocGroup[] = [
  'Platform Overview',
  'Technical Documentation',
  'Security & Compliance',
];

export function routesInGroup(group: DocGroup): RouteEntry[] {
  return siteRoutes.filter((route) => route.group === group);
}

export const matchSiteRoute = routeMatcher(siteRoutes);

export function findSiteRoute(pathname: string): RouteEntry | undefined {
  return matchSiteRoute(pathname)?.route;
}

/** The learning app's addresses: `/app` and everything under it. */
export function isAppPath(pathname: string): boolean {
  return pathname === '/app' || pathname.startsWith('/app/');
}

export const notFoundTitle = pageTitle('Page not found');
