import { Link } from 'react-router';
import { House } from 'lucide-react';
import type { RouteEntry } from '@common/route-table';
import { siteRoutes } from '@common/site-routes';
import {
  Breadcrumb,
  BreadcrumbItem,
  BreadcrumbLink,
  BreadcrumbList,
  BreadcrumbPage,
  BreadcrumbSeparator,
} from '@/components/ui/breadcrumb';

/** A section that is also a page (Platform Overview, Security & Compliance) links to it. */
function sectionPage(section: string): RouteEntry | undefined {
  return siteRoutes.find((route) => route.label === section && route.path !== '/');
}

/**
 * Home › section › page, read from the route table. A page that is its section's own page
 * (Platform Overview) is named once: Home › Platform Overview.
 */
export function SiteBreadcrumb({ route }: { route: RouteEntry }) {
  const sectionRoute = sectionPage(route.section);
  const isSectionPage = sectionRoute?.path === route.path;
  return (
    <Breadcrumb>
      <BreadcrumbList>
        <BreadcrumbItem>
          <BreadcrumbLink asChild>
            <Link to="/" className="inline-flex items-center gap-1.5">
              <House className="size-3.5" aria-hidden="true" />
              Home
            </Link>
          </BreadcrumbLink>
        </BreadcrumbItem>
        <BreadcrumbSeparator />
        {!isSectionPage && (
          <>
            <BreadcrumbItem>
              {sectionRoute ? (
                <BreadcrumbLink asChild>
                  <Link to={sectionRoute.path}>{route.section}</Link>
                </BreadcrumbLink>
              ) : (
                <span>{route.section}</span>
              )}
            </BreadcrumbItem>
            <BreadcrumbSeparator />
          </>
        )}
        <BreadcrumbItem>
          <BreadcrumbPage>{route.label}</BreadcrumbPage>
        </BreadcrumbItem>
      </BreadcrumbList>
    </Breadcrumb>
  );
}
