import { Link, useLocation } from 'react-router';
import { brand } from '@common/brand';
import { AccountEntry } from '@/features/auth/account-entry';
import { DataRoomButton } from '@/features/data-room/data-room-button';
import { SidebarTrigger } from '@/components/ui/sidebar';
import { Separator } from '@/components/ui/separator';
import { LyceumMark } from './lyceum-mark';

export function SiteHeader({ withSidebar }: { withSidebar: boolean }) {
  const { pathname } = useLocation();
  return (
    <header className="sticky top-0 z-40 flex h-(--header-height) w-full shrink-0 items-center border-b bg-background/95 backdrop-blur supports-[backdrop-filter]:bg-background/85">
      <div className="flex w-full items-center gap-2 px-3 sm:px-5">
        {withSidebar && (
          <>
            <SidebarTrigger className="-ml-1" />
            <Separator orientation="vertical" className="mr-1 h-6! max-sm:hidden" />
          </>
        )}
        <Link
          to="/"
          className="flex min-w-0 items-center gap-2 rounded-md py-1 pr-1 sm:gap-2.5 sm:pr-2"
          aria-label={`${brand.headerTitle} home`}
        >
          <LyceumMark className="size-8 shrink-0 sm:size-9" />
          {/* Stacked on phones (name over "Learning Platform"), one line from 640 px. */}
          <span className="flex min-w-0 flex-col leading-none sm:flex-row sm:items-baseline sm:gap-1.5">
            <span className="truncate font-serif text-lg font-semibold tracking-tight text-primary sm:text-xl">
              {brand.product}
            </span>{' '}
            <span className="truncate pt-0.5 text-[0.6875rem] font-medium text-muted-foreground sm:pt-0 sm:text-lg">
              Learning Platform
            </span>
          </span>
        </Link>
        <div className="ml-auto flex items-center gap-2">
          <AccountEntry pathname={pathname} />
          <DataRoomButton active={pathname === '/data-room'} />
        </div>
      </div>
    </header>
  );
}
