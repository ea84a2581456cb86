/**
 * The learning app's sidebar, as a table: which screens each role sees. A link appears once
 * its feature works; a feature adds its entry to `navItems` and names it under each role that
 * may use it. Labels come from the route table, so a page is named in one place.
 */
import {
  BarChart3,
  BookOpen,
  Bot,
  ClipboardCheck,
  ClipboardList,
  CloudDownload,
  CreditCard,
  FileText,
  FileLock,
  FileHeart,
  FileSearch,
  KeyRound,
  KeySquare,
  Gauge,
  GraduationCap,
  Layers,
  LayoutDashboard,
  Library,
  Network,
  NotebookPen,
  PencilRuler,
  Settings,
  ShieldCheck,
  SlidersHorizontal,
  Share2,
  TicketPercent,
  Sparkles,
  Trophy,
  UserCog,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { findRoute } from '@common/routes';
import type { LearningRole, Workspace } from '@/lib/app-session';

export interface AppNavItem {
  path: string;
  label: string;
  icon: LucideIcon;
}

function item(path: string, icon: LucideIcon): AppNavItem {
  const route = findRoute(path);
  if (!route || route.kind !== 'app') throw new Error(`${path} is not an app route`);
  return { path, label: route.label, icon };
}

const navItems = {
  dashboard: item('/app', LayoutDashboard),
  courses: item('/app/courses', BookOpen),
  library: item('/app/library', Library),
  coach: item('/app/coach', Bot),
  courseEditor: item('/app/course-editor', PencilRuler),
  notes: item('/app/notes', NotebookPen),
  flashcards: item('/app/flashcards', Layers),
  offline: item('/app/offline', CloudDownload),
  progress: item('/app/progress', Trophy),
  teaching: item('/app/teaching', GraduationCap),
  grading: item('/app/teaching/grading', ClipboardCheck),
  adapt: item('/app/adapt', Sparkles),
  users: item('/app/org/users', UserCog),
  enrolments: item('/app/org/enrolments', ClipboardList),
  analytics: item('/app/org/analytics', BarChart3),
  thresholds: item('/app/org/thresholds', Gauge),
  reports: item('/app/org/reports', FileText),
  orgSettings: item('/app/org/settings', Settings),
  apiKeys: item('/app/org/api-keys', KeyRound),
  sso: item('/app/org/sso', KeySquare),
  privacyRequests: item('/app/privacy-requests', FileLock),
  compliance: item('/app/compliance', FileSearch),
  iep: item('/app/iep', FileHeart),
  boards: item('/app/owner/boards', Network),
  distribution: item('/app/owner/distribution', Share2),
  people: item('/app/owner/people', Users),
  coupons: item('/app/admin/coupons', TicketPercent),
} as const;

/** Everyone's own screens, whatever their roles: listed last. */
const ownItems: readonly AppNavItem[] = [
  item('/app/settings', SlidersHorizontal),
  item('/app/plans', CreditCard),
  item('/app/privacy', ShieldCheck),
];

type NavKey = keyof typeof navItems;

/**
 * Personal mode is its own row: a user with no organization studies on their own. The owner
 * (organizations.owner_id, not a membership role) is a row too: boards, board admins, course
 * distribution and every user are theirs alone.
 */
export const navByRole: Record<
  LearningRole | 'board_admin' | 'owner' | 'personal' | 'platform_admin',
  readonly NavKey[]
> = {
  personal: [
    'dashboard',
    'courses',
    'library',
    'coach',
    'notes',
    'flashcards',
    'offline',
    'courseEditor',
    'adapt',
    'progress',
  ],
  learner: [
    'dashboard',
    'courses',
    'library',
    'coach',
    'notes',
    'flashcards',
    'offline',
    'progress',
  ],
  instructor: [
    'dashboard',
    'courses',
    'library',
    'coach',
    'courseEditor',
    'teaching',
    'grading',
    'adapt',
    'iep',
  ],
  org_admin: [
    'dashboard',
    'courses',
    'library',
    'coach',
    'courseEditor',
    'teaching',
    'grading',
    'adapt',
    'users',
    'enrolments',
    'analytics',
    'thresholds',
    'reports',
    'orgSettings',
    'apiKeys',
    'sso',
    'privacyRequests',
    'iep',
  ],
  compliance_officer: ['dashboard', 'compliance'],
  // A platform admin (user_roles 'admin', no organization) reviews every organization and
  // works every data request, whichever workspace is chosen.
  platform_admin: ['compliance', 'privacyRequests', 'coupons'],
  // An org_admin of boards only (Workspace.boardAdminOnly): the organization-wide admin
  // screens refuse them, so they get the links their board work needs.
  board_admin: ['dashboard', 'courses', 'users', 'enrolments', 'adapt'],
  owner: ['boards', 'distribution', 'people'],
};

/** The links for a workspace: every role's entries, each once, in the table's order, then the user's own. */
export function navFor(workspace: Workspace, platformAdmin = false): AppNavItem[] {
  const roles: (keyof typeof navByRole)[] =
    workspace.kind === 'personal'
      ? ['personal']
      : [
          ...workspace.roles.map((role) =>
            role === 'org_admin' && workspace.boardAdminOnly ? ('board_admin' as const) : role,
          ),
          ...(workspace.isOwner ? (['owner'] as const) : []),
        ];
  if (platformAdmin) roles.push('platform_admin');
  const keys = new Set(roles.flatMap((role) => navByRole[role]));
  return [
    ...(Object.keys(navItems) as NavKey[])
      .filter((key) => keys.has(key))
      .map((key) => navItems[key]),
    ...ownItems,
  ];
}

/** The entry a path belongs to: itself or the longest entry it lies under. */
export function activeNavPath(items: readonly AppNavItem[], pathname: string): string | undefined {
  return items
    .filter((entry) => pathname === entry.path || pathname.startsWith(`${entry.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path;
}
