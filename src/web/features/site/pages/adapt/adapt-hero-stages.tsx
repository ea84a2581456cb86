import { ArrowDown } from 'lucide-react';
import { HeroFigure } from '../shared/hero-figure';
import { pipeline } from './adapt-content';

/** The four stages every course passes through, shown beside the hero. */
export function AdaptHeroStages() {
  return (
    <HeroFigure caption="Every course, four stages">
      <ol className="space-y-1">
        {pipeline.steps.map(({ stage, icon: Icon }, index) => (
          <li key={stage}>
            {index > 0 && (
              <ArrowDown className="mx-auto mb-1 size-4 text-muted-foreground" aria-hidden="true" />
            )}
            <div className="flex items-center gap-3 rounded-lg border bg-background px-3 py-2">
              <Icon className="size-4 shrink-0 text-primary" aria-hidden="true" />
              <span className="text-sm font-medium text-foreground">{stage}</span>
            </div>
          </li>
        ))}
      </ol>
    </HeroFigure>
  );
}
