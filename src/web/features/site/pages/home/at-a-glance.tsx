import { atAGlance } from './home-content';

/** The hero's side card: the platform's headline facts as a description list. */
export function AtAGlance() {
  return (
    <section
      aria-labelledby="at-a-glance-heading"
      className="w-full max-w-md rounded-2xl border bg-card p-6 shadow-sm @4xl:w-80"
    >
      <h2
        id="at-a-glance-heading"
        className="text-sm font-semibold tracking-wide text-primary uppercase"
      >
        {atAGlance.title}
      </h2>
      <dl className="mt-4 divide-y">
        {atAGlance.items.map(({ value, label }) => (
          <div key={label} className="flex items-baseline gap-4 py-3">
            <dt className="w-20 shrink-0 text-2xl font-bold text-foreground tabular-nums">
              {value}
            </dt>
            <dd className="text-sm leading-snug text-muted-foreground">{label}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
