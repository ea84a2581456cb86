/**
 * The learning app's frame (decision 0110): the sign-in gate, the header with the user's name
 * and sign-out, the sidebar with the role's links and the workspace switcher, then the page.
 * Loaded only for /app routes, so the public pages never carry it.
 */
import { Suspense, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { Building2, LogOut, RotateCw, UserRound } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { findRoute, type RouteEntry } from '@common/routes';
import { brand } from '@common/brand';
import { useProfile } from '@/features/auth/api/get-profile';
import { useSignOut } from '@/features/auth/api/sign-out';
import { startAuth, useAuth } from '@/features/auth/auth-store';
import { useConsentSync } from '@/features/privacy/api/consent';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import {
  Sidebar,
  SidebarContent,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarInset,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarProvider,
  SidebarRail,
  SidebarTrigger,
  useSidebar,
} from '@/components/ui/sidebar';
import { Separator } from '@/components/ui/separator';
import { ReadingRuler } from '@/components/reading-ruler';
import { AppSessionContext, workspaceKey, type Workspace } from '@/lib/app-session';
import { deviceUser } from '@/lib/offline/device-store';
import { useSyncStatus } from '@/lib/offline/offline-sync';
import { loginPathFor } from '@/lib/safe-next-path';
import { useOnline } from '@/lib/use-online';
import { applyAndRemember, usePreferences } from '@/lib/user-preferences';
import { useMemberships, type Membership } from './api/get-memberships';
import { activeNavPath, navFor } from './app-nav';
import { applyDocumentMeta } from './document-meta';
import { LyceumMark } from './lyceum-mark';
import { offlinePagePaths } from './offline/offline-pages';
import { SyncStatusLink } from './offline/sync-status-link';
import { UnsentChangesDialog } from './offline/unsent-changes-dialog';
import { useOfflineSync } from './offline/use-offline-sync';
import { PageErrorBoundary } from './page-error-boundary';
import { PageSkeleton } from './page-skeleton';
import { routePage } from './route-pages';
import {
  chooseWorkspace,
  readStoredWorkspace,
  storeWorkspace,
  workspaceLabel,
  workspaceRoleLabels,
  workspacesFor,
} from './workspaces';

function RoutedPage({ route }: { route: RouteEntry }) {
  const { Component } = routePage(route);
  return <Component />;
}

function Centered({ children }: { children: ReactNode }) {
  return <div className="mx-auto w-full max-w-xl px-5 py-16">{children}</div>;
}

/**
 * An address under /app that is not one of the app's pages gets `notFound` (the public
 * frame's not-found page). Only a signed-in user gets past this; anyone else goes to sign in
 * and comes back here.
 */
export function AppLayout({ notFound }: { notFound: ReactNode }) {
  const location = useLocation();
  const found = findRoute(location.pathname);
  const route = found?.kind === 'app' ? found : undefined;
  if (!route) return notFound;
  return <SignInGate route={route} />;
}

function SignInGate({ route }: { route: RouteEntry }) {
  const location = useLocation();
  const auth = useAuth();
  const online = useOnline();
  useEffect(() => {
    // Offline the sign-in service cannot answer; it is asked again when the network returns.
    if (online) void startAuth().catch(() => undefined);
  }, [online]);
  useEffect(() => {
    applyDocumentMeta(route, window.location);
    // The page's code loads while the session and organizations are read, not after.
    void routePage(route)
      .preload()
      .catch(() => undefined);
  }, [route]);

  // Offline the session can be neither confirmed nor renewed: the account last signed in here
  // studies from what it kept on this device (decision 0181) until the network returns.
  const offlineUser = !online && auth.status !== 'signed-in' ? deviceUser() : null;
  if (offlineUser) {
    return (
      <SignedInApp
        key={offlineUser.id}
        userId={offlineUser.id}
        email={offlineUser.email}
        platformAdmin={false}
        route={route}
        openedOffline
      />
    );
  }
  if (auth.status === 'signed-out') {
    return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  }
  if (auth.status === 'error') {
    return (
      <Centered>
        <Notice tone="error">
          Could not reach the sign-in service: {auth.error}.{' '}
          <button
            type="button"
            className="font-medium underline"
            onClick={() => void startAuth().catch(() => undefined)}
          >
            Try again
          </button>
        </Notice>
      </Centered>
    );
  }
  if (auth.status !== 'signed-in' || !auth.session) return <PageSkeleton />;
  const { user } = auth.session;
  const roles: unknown = user.app_metadata.roles;
  const platformAdmin = Array.isArray(roles) && roles.includes('admin');
  return (
    <SignedInApp
      key={user.id}
      userId={user.id}
      email={user.email ?? ''}
      platformAdmin={platformAdmin}
      route={route}
    />
  );
}

function SignedInApp({
  userId,
  email,
  platformAdmin,
  route,
  openedOffline = false,
}: {
  userId: string;
  email: string;
  platformAdmin: boolean;
  route: RouteEntry;
  /** Opened without a network from the device's copy: only the offline screens work. */
  openedOffline?: boolean;
}) {
  const memberships = useMemberships(userId);
  const online = useOnline();
  useConsentSync(userId);
  useOfflineSync({ id: userId, email }, !openedOffline);
  const workspaces = useMemo(
    () =>
      memberships.data
        ? workspacesFor(memberships.data.memberships, memberships.data.boards)
        : // Offline the organizations cannot be read (the query fails or waits); the offline
          // screens need none.
          !online
          ? workspacesFor([])
          : null,
    [memberships.data, online],
  );
  const [chosenKey, setChosenKey] = useState(() => readStoredWorkspace(userId));
  const workspace = workspaces ? chooseWorkspace(workspaces, chosenKey) : null;
  const session = useMemo(
    () => (workspace ? { userId, email, workspace, platformAdmin } : null),
    [userId, email, workspace, platformAdmin],
  );

  function choose(key: string) {
    storeWorkspace(userId, key);
    setChosenKey(key);
  }

  // The server's copy wins over this browser's (another device may have changed them).
  const preferences = usePreferences(userId);
  const accessibility = preferences.data?.preferences;
  useEffect(() => {
    if (accessibility) applyAndRemember(accessibility);
  }, [accessibility]);

  return (
    <SidebarProvider className="flex-col">
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      {accessibility?.readingRuler && <ReadingRuler />}
      <AppHeader userId={userId} email={email} />
      <div className="flex flex-1">
        {workspaces && workspace && (
          <AppSidebar
            workspaces={workspaces}
            workspace={workspace}
            memberships={memberships.data?.memberships ?? []}
            platformAdmin={platformAdmin}
            onChoose={choose}
          />
        )}
        <SidebarInset>
          <main id="main-content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
            {memberships.isError && online ? (
              <Centered>
                <Notice tone="error">
                  Could not load your organizations: {memberships.error.message}{' '}
                  <Button size="sm" variant="outline" onClick={() => void memberships.refetch()}>
                    <RotateCw aria-hidden="true" />
                    Try again
                  </Button>
                </Notice>
              </Centered>
            ) : session ? (
              <AppSessionContext.Provider value={session}>
                <PageErrorBoundary resetKey={route.path}>
                  <Suspense fallback={<PageSkeleton />}>
                    {openedOffline && !offlinePagePaths.has(route.path) ? (
                      <Centered>
                        <Notice tone="info">
                          You are offline, and this page needs a connection.{' '}
                          <Link to="/app/offline" className="font-medium underline">
                            Open Offline study
                          </Link>{' '}
                          for the lessons and flashcards kept on this device.
                        </Notice>
                      </Centered>
                    ) : (
                      <RoutedPage route={route} />
                    )}
                  </Suspense>
                </PageErrorBoundary>
              </AppSessionContext.Provider>
            ) : (
              <PageSkeleton />
            )}
          </main>
        </SidebarInset>
      </div>
    </SidebarProvider>
  );
}

function AppHeader({ userId, email }: { userId: string; email: string }) {
  const profile = useProfile(userId);
  const signOut = useSignOut();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const name = profile.data?.fullName || profile.data?.displayName || email;
  const sync = useSyncStatus(userId);
  const [confirming, setConfirming] = useState(false);

  async function leave() {
    // Signing out deletes what this device keeps for the account, queue included.
    if (sync.waiting > 0 && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    try {
      await signOut.mutateAsync('local');
      // Nothing read for this account may show to whoever signs in next in this tab.
      queryClient.clear();
      void navigate('/login', { replace: true });
    } catch (error) {
      const { toast } = await import('sonner');
      toast.error(`Could not sign out: ${(error as Error).message}`);
    }
  }

  return (
    <header className="sticky top-0 z-40 flex h-(--header-height) w-full shrink-0 items-center border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/85">
      <div className="flex w-full items-center gap-2 px-3 sm:px-5">
        <SidebarTrigger className="-ml-1" label="Toggle app navigation" />
        <Separator orientation="vertical" className="mr-1 h-6! max-sm:hidden" />
        <Link
          to="/app"
          className="flex min-w-0 items-center gap-2 rounded-md py-1 pr-1"
          aria-label={`${brand.product} dashboard`}
        >
          <LyceumMark className="size-8 shrink-0" />
          <span className="truncate font-serif text-lg font-semibold tracking-tight text-primary max-sm:sr-only">
            {brand.product}
          </span>
        </Link>
        <div className="ml-auto flex min-w-0 items-center gap-2">
          <SyncStatusLink userId={userId} />
          <Link
            to="/account"
            className="flex min-w-0 items-center gap-1.5 rounded-md px-2 py-1 text-sm hover:bg-accent"
            title="Account settings"
          >
            <UserRound aria-hidden="true" className="size-4 shrink-0" />
            <span className="sr-only">Account settings for </span>
            <span className="max-w-[10rem] truncate font-medium sm:max-w-[16rem]">{name}</span>
          </Link>
          <Button
            size="sm"
            variant="outline"
            onClick={() => void leave()}
            disabled={signOut.isPending}
          >
            <LogOut aria-hidden="true" />
            <span className="max-sm:sr-only">
              {signOut.isPending ? 'Signing out…' : 'Sign out'}
            </span>
          </Button>
          {confirming && (
            <UnsentChangesDialog
              waiting={sync.waiting}
              onStay={() => setConfirming(false)}
              onSignOut={() => void leave()}
            />
          )}
        </div>
      </div>
    </header>
  );
}

function AppSidebar({
  workspaces,
  workspace,
  memberships,
  platformAdmin,
  onChoose,
}: {
  workspaces: Workspace[];
  workspace: Workspace;
  memberships: readonly Membership[];
  platformAdmin: boolean;
  onChoose: (key: string) => void;
}) {
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  const items = navFor(workspace, platformAdmin);
  const active = activeNavPath(items, pathname);
  const selectId = useId();

  return (
    <Sidebar
      label="App navigation"
      description="Your workspace and the learning app's screens."
      className="top-(--header-height) h-[calc(100svh-var(--header-height))]!"
    >
      <SidebarHeader className="border-b p-3 sidebar-collapsed:hidden">
        {workspaces.length > 1 ? (
          <div className="grid gap-1.5">
            <label htmlFor={selectId} className="text-xs font-semibold text-sidebar-foreground/80">
              Workspace
            </label>
            <select
              id={selectId}
              className="h-9 w-full rounded-md border bg-background px-2 text-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              value={workspaceKey(workspace)}
              onChange={(event) => onChoose(event.target.value)}
            >
              {workspaces.map((w) => (
                <option key={workspaceKey(w)} value={workspaceKey(w)}>
                  {workspaceLabel(w)}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <div className="flex items-start gap-2 text-sm">
            {workspace.kind === 'personal' ? (
              <UserRound aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            ) : (
              <Building2 aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            )}
            <div className="min-w-0">
              <p className="font-semibold">{workspaceLabel(workspace)}</p>
              {workspace.kind === 'personal' && (
                <p className="text-xs text-sidebar-foreground/80">
                  Public courses and courses you enrol in yourself.
                </p>
              )}
            </div>
          </div>
        )}
        {workspace.kind === 'organization' && (
          <p className="text-xs text-sidebar-foreground/80">
            {workspaceRoleLabels(workspace, memberships).join(', ')}
          </p>
        )}
        {workspace.kind === 'organization' && workspace.boardName && (
          <p className="text-xs text-sidebar-foreground/80">
            Lists show {workspace.boardName} only.
          </p>
        )}
      </SidebarHeader>
      <SidebarContent className="py-2">
        <SidebarGroup>
          <SidebarGroupLabel>Learning</SidebarGroupLabel>
          <SidebarGroupContent>
            <SidebarMenu>
              {items.map((entry) => {
                const isActive = entry.path === active;
                const Icon = entry.icon;
                return (
                  <SidebarMenuItem key={entry.path}>
                    <SidebarMenuButton asChild isActive={isActive} tooltip={entry.label}>
                      <Link
                        to={entry.path}
                        aria-current={isActive ? 'page' : undefined}
                        onClick={() => {
                          if (isMobile) setOpenMobile(false);
                        }}
                      >
                        <Icon aria-hidden="true" />
                        <span>{entry.label}</span>
                      </Link>
                    </SidebarMenuButton>
                  </SidebarMenuItem>
                );
              })}
            </SidebarMenu>
          </SidebarGroupContent>
        </SidebarGroup>
      </SidebarContent>
      <SidebarRail label="Toggle app navigation" />
    </Sidebar>
  );
}
