import { HeroFigure } from '../shared/hero-figure';
import { environments, roles } from './platform-content';

/** Environments and roles at a glance, shown beside the hero. */
export function PlatformHeroSummary() {
  return (
    <HeroFigure caption="Two environments, three roles">
      <ul className="grid grid-cols-2 gap-2">
        {environments.map(({ name, audience, icon: Icon }) => (
          <li key={name} className="rounded-lg border bg-background p-3">
            <Icon className="size-5 text-primary" aria-hidden="true" />
            <p className="mt-2 text-sm font-semibold text-foreground">{name}</p>
            <p className="text-xs text-muted-foreground">{audience}</p>
          </li>
        ))}
      </ul>
      <ol className="mt-3 space-y-2">
        {roles.map(({ name, icon: Icon }) => (
          <li
            key={name}
            className="flex items-center gap-3 rounded-lg border bg-background px-3 py-2"
          >
            <Icon className="size-4 shrink-0 text-primary" aria-hidden="true" />
            <span className="text-sm font-medium text-foreground">{name}</span>
          </li>
        ))}
      </ol>
    </HeroFigure>
  );
}
