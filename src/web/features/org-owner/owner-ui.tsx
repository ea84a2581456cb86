/** What the owner's screens share beyond components/app-page: the owner check and small helpers. */
import type { ReactNode } from 'react';
import { AppPage } from '@/components/app-page';
import { Notice } from '@/components/ui/notice';
import { useAppSession, type Workspace } from '@/lib/app-session';

export type OwnedWorkspace = Extract<Workspace, { kind: 'organization' }>;

/**
 * Renders the page for the organization's owner; anyone else learns whose screen it is. The
 * database refuses their writes either way (decision 0100); this only spares them a dead end.
 */
export function OwnerOnly({
  title,
  children,
}: {
  title: string;
  children: (workspace: OwnedWorkspace) => ReactNode;
}) {
  const { workspace } = useAppSession();
  if (workspace.kind !== 'organization' || !workspace.isOwner) {
    return (
      <AppPage title={title}>
        <Notice tone="info">
          This screen belongs to an organization&rsquo;s owner. Choose an organization you own in
          the workspace menu, or ask your organization&rsquo;s owner.
        </Notice>
      </AppPage>
    );
  }
  return <>{children(workspace)}</>;
}

export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  );
}

export { plural } from '@/lib/plural';
