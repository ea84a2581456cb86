import { Link } from 'react-router';
import { ArrowLeft, Compass } from 'lucide-react';
import { Button } from '@/components/ui/button';

export function NotFoundPage() {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-center justify-center px-6 py-24 text-center">
      <div className="mb-6 flex size-16 items-center justify-center rounded-full bg-secondary text-primary">
        <Compass className="size-8" aria-hidden="true" />
      </div>
      <p className="text-sm font-semibold tracking-widest text-muted-foreground uppercase">
        Error 404
      </p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight text-foreground sm:text-5xl">
        Oops! Page not found
      </h1>
      <p className="mt-4 max-w-md text-base leading-relaxed text-muted-foreground">
        The address may be mistyped, or the page may have moved. The documentation is organised from
        the home page.
      </p>
      <Button asChild size="lg" className="mt-8">
        <Link to="/">
          <ArrowLeft aria-hidden="true" />
          Return to Home
        </Link>
      </Button>
    </section>
  );
}
