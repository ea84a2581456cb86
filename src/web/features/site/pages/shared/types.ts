import type { LucideIcon } from 'lucide-react';

/** A link to another page of the site, always internal (rendered through the router). */
export interface PageLink {
  to: string;
  label: string;
}

/** One card of a feature grid: words in the content modules, layout in the components. */
export interface FeatureItem {
  title: string;
  text: string;
  icon: LucideIcon;
  link?: PageLink;
  /** Short qualifier shown as a text badge, e.g. "Planned" — never colour alone. */
  tag?: string;
}
