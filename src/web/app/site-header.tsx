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
          className="flex min-w-0 items-center gap-2.5 rounded-md py-1 pr-2"
          aria-label={`${brand.headerTitle} home`}
        >
          <LyceumMark className="size-9 shrink-0" />
          <span className="min-w-0 truncate font-serif text-lg leading-tight font-semibold tracking-tight text-primary sm:text-xl">
            {brand.product}
            <span className="font-sans text-base font-medium text-muted-foreground max-[420px]:sr-only sm:text-lg">
              {' '}
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
