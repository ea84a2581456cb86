import {
  BookOpen,
  Brain,
  ChartColumn,
  Cloud,
  Code,
  FileText,
  Fingerprint,
  GraduationCap,
  House,
  KeyRound,
  Layers,
  LifeBuoy,
  Lock,
  MapPin,
  Network,
  ScrollText,
  Shield,
  ShieldCheck,
  Siren,
  UserCog,
  WandSparkles,
  type LucideIcon,
} from 'lucide-react';
import type { DocGroup } from '@common/route-table';
import { siteRoutes } from '@common/site-routes';

export const groupIcons: Record<DocGroup, LucideIcon> = {
  'Platform Overview': GraduationCap,
  'Technical Documentation': Code,
  'Security & Compliance': ShieldCheck,
};

/**
 * Sidebar icons by page, keyed by the route table's own entries (see route-icons.test.ts,
 * which fails when a listed page has no icon or an icon names an unknown page).
 */
const iconsByPath: Record<string, LucideIcon> = {
  '/': House,
  '/platform-overview': Layers,
  '/ai-study-coach': Brain,
  '/le-adapt': WandSparkles,
  '/release-notes': ScrollText,
  '/system-architecture': Network,
  '/build-specs': FileText,
  '/data-quotas': ChartColumn,
  '/api-access': KeyRound,
  '/sso-integration': Fingerprint,
  '/developer-build-security': Code,
  '/technical-support-sla': LifeBuoy,
  '/security-compliance': Shield,
  '/security-notes': BookOpen,
  '/user-roles-permissions': UserCog,
  '/privacy-gdpr': Lock,
  '/data-breach-response': Siren,
  '/data-encryption': KeyRound,
  '/data-hosting': MapPin,
  '/security-audits': ShieldCheck,
  '/data-room': Cloud,
};

export function routeIcon(path: string): LucideIcon {
  return iconsByPath[path] ?? FileText;
}

/** For the test: paths that have an icon but no route. */
export function iconPathsWithoutRoute(): string[] {
  const known = new Set(siteRoutes.map((route) => route.path));
  return Object.keys(iconsByPath).filter((path) => !known.has(path));
}

export function hasOwnIcon(path: string): boolean {
  return path in iconsByPath;
}
