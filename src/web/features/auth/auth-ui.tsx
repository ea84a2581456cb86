/** Shared pieces of the account screens: the centred card and error notices. */
import { type ComponentProps, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

export function AuthShell({
  title,
  intro,
  children,
  wide = false,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div
      className={cn('mx-auto w-full px-5 py-10 sm:px-8 sm:py-14', wide ? 'max-w-3xl' : 'max-w-md')}
    >
      <h1 className="font-serif text-3xl font-semibold tracking-tight text-primary">{title}</h1>
      {intro && <p className="mt-2 text-muted-foreground">{intro}</p>}
      <div className="mt-8">{children}</div>
    </div>
  );
}

export function Panel({ className, ...props }: ComponentProps<'section'>) {
  return (
    <section
      className={cn(
        'rounded-xl border bg-card p-5 text-card-foreground shadow-sm sm:p-6',
        className,
      )}
      {...props}
    />
  );
}

/** Reads `error_description` that the auth service puts in a redirect's fragment or query. */
export function redirectError(location: Location): string | undefined {
  const hash = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  const description = hash.get('error_description') ?? query.get('error_description');
  return description ?? undefined;
}
