import type { ReactNode } from 'react';

interface HeroFigureProps {
  caption: string;
  children: ReactNode;
}

/** The side card of a hero on wide screens: an illustration made of real content, captioned. */
export function HeroFigure({ caption, children }: HeroFigureProps) {
  return (
    <figure className="w-80 rounded-2xl border bg-card p-5 shadow-sm">
      <figcaption className="text-sm font-semibold tracking-wide text-primary uppercase">
        {caption}
      </figcaption>
      <div className="mt-4">{children}</div>
    </figure>
  );
}
