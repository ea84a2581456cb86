import { Clapperboard } from 'lucide-react';

interface VideoPosterProps {
  caption: string;
  status: string;
  summary: readonly string[];
}

/**
 * Stands in for the walkthrough video: a poster with a caption and a text summary of what the
 * video shows. There is deliberately no play control, because there is nothing to play yet.
 */
export function VideoPoster({ caption, status, summary }: VideoPosterProps) {
  return (
    <figure className="overflow-hidden rounded-2xl border bg-card shadow-xs">
      {/* The poster repeats the caption visually; assistive technology reads the figcaption. */}
      <div
        aria-hidden="true"
        className="flex aspect-video max-h-80 w-full flex-col items-center justify-center gap-3 bg-gradient-to-br from-primary/90 to-primary px-6 text-center text-primary-foreground"
      >
        <Clapperboard className="size-12 opacity-90" />
        <p className="max-w-md text-lg font-semibold text-balance">{caption}</p>
      </div>
      <figcaption className="p-5 sm:p-6">
        <span className="sr-only">{caption}. </span>
        <p className="text-sm font-medium text-foreground">{status}</p>
        <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm leading-relaxed text-muted-foreground marker:text-foreground">
          {summary.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      </figcaption>
    </figure>
  );
}
