import { useCallback } from 'react';
import { Link, useLocation } from 'react-router';
import { normalizePath } from '@common/route-table';
import { docGroups, routesInGroup } from '@common/site-routes';
import {
  Sidebar,
  SidebarContent,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarRail,
  useSidebar,
} from '@/components/ui/sidebar';
import { groupIcons, routeIcon } from './route-icons';

/** Scrolls the sidebar's list, and only it, so the link to `path` is in view. */
function revealLink(list: HTMLElement | null, path: string) {
  const link = list?.querySelector<HTMLElement>(`a[href="${CSS.escape(path)}"]`);
  if (!list || !link) return;
  const outer = list.getBoundingClientRect();
  const inner = link.getBoundingClientRect();
  if (inner.top >= outer.top && inner.bottom <= outer.bottom) return;
  list.scrollTop += inner.top - outer.top - (outer.height - inner.height) / 2;
}

/** Documentation navigation: the three groups of the route table, each page with its icon. */
export function DocSidebar() {
  const { pathname } = useLocation();
  const current = normalizePath(pathname);
  const { isMobile, setOpenMobile } = useSidebar();
  // A callback ref keyed on the page: it runs when the list mounts (page load, the phone's
  // sheet opening) and again when the page changes. Not scrollIntoView, which would also
  // scroll the page itself.
  const listRef = useCallback((list: HTMLElement | null) => revealLink(list, current), [current]);

  return (
    <Sidebar
      label="Documentation"
      className="top-(--header-height) h-[calc(100svh-var(--header-height))]!"
    >
      <SidebarContent ref={listRef} className="py-2">
        {docGroups.map((group) => {
          const GroupIcon = groupIcons[group];
          return (
            <SidebarGroup key={group}>
              <SidebarGroupLabel>
                <GroupIcon aria-hidden="true" />
                {group}
              </SidebarGroupLabel>
              <SidebarGroupContent>
                <SidebarMenu>
                  {routesInGroup(group).map((route) => {
                    const Icon = routeIcon(route.path);
                    const active = current === route.path;
                    return (
                      <SidebarMenuItem key={route.path}>
                        <SidebarMenuButton asChild isActive={active} tooltip={route.label}>
                          <Link
                            to={route.path}
                            aria-current={active ? 'page' : undefined}
                            onClick={() => {
                              if (isMobile) setOpenMobile(false);
                            }}
                          >
                            <Icon aria-hidden="true" />
                            <span>{route.label}</span>
                          </Link>
                        </SidebarMenuButton>
                      </SidebarMenuItem>
                    );
                  })}
                </SidebarMenu>
              </SidebarGroupContent>
            </SidebarGroup>
          );
        })}
      </SidebarContent>
      <SidebarRail />
    </Sidebar>
  );
}
