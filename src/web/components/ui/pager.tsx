import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Previous/next paging for a server-paginated list; `page` counts from 0. */
export function Pager({
  label,
  page,
  pages,
  onPage,
  previousLabel = 'Previous',
  nextLabel = 'Next',
}: {
  label: string;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  previousLabel?: string;
  nextLabel?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2">
      <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" />
        {previousLabel}
      </Button>
      <span className="text-sm text-muted-foreground">
        Page {page + 1} of {pages}
      </span>
      <Button
        variant="outline"
        size="sm"
        disabled={page + 1 >= pages}
        onClick={() => onPage(page + 1)}
      >
        {nextLabel}
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}
