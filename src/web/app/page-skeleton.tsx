import { Skeleton } from '@/components/ui/skeleton';

/** Shown while a page's code loads on client-side navigation (usually a few milliseconds). */
export function PageSkeleton() {
  return (
    <div className="mx-auto w-full max-w-4xl space-y-4 px-5 py-10 sm:px-8" aria-busy="true">
      <span className="sr-only">Loading page…</span>
      <Skeleton className="h-10 w-2/3" />
      <Skeleton className="h-5 w-full" />
      <Skeleton className="h-5 w-5/6" />
      <Skeleton className="mt-8 h-40 w-full" />
    </div>
  );
}
