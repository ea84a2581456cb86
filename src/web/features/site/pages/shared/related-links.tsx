import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import type { PageLink } from './types';

interface RelatedLinksProps {
  links: readonly PageLink[];
  label?: string;
}

/** Links at the end of a section to the documentation that backs it (no landmark: a page has many). */
export function RelatedLinks({ links, label = 'Read more' }: RelatedLinksProps) {
  return (
    <div className="mt-8 flex flex-wrap items-center gap-x-6 gap-y-3">
      <p className="text-sm font-medium text-foreground">{label}:</p>
      <ul className="flex flex-wrap gap-x-6 gap-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link
              to={link.to}
              className="inline-flex items-center gap-1 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {link.label}
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
