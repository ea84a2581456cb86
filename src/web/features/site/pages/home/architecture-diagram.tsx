import { ArrowDown } from 'lucide-react';
import type { ArchitectureLayer } from './home-details-content';

interface ArchitectureDiagramProps {
  client: ArchitectureLayer;
  services: readonly ArchitectureLayer[];
  hosting: string;
}

function LayerBox({ layer }: { layer: ArchitectureLayer }) {
  const Icon = layer.icon;
  return (
    <div className="flex h-full gap-3 rounded-lg border bg-card p-4 shadow-xs">
      <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
        <Icon className="size-5" aria-hidden="true" />
      </span>
      <div>
        <p className="font-semibold text-foreground">{layer.name}</p>
        <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{layer.role}</p>
      </div>
    </div>
  );
}

/**
 * The system as two tiers: the web app on top, the backend services below. Drawn with boxes,
 * but read as a figure with a text caption so the structure does not depend on the drawing.
 */
export function ArchitectureDiagram({ client, services, hosting }: ArchitectureDiagramProps) {
  return (
    <figure className="rounded-2xl border bg-muted/30 p-4 sm:p-6">
      <div className="mx-auto max-w-xl">
        <LayerBox layer={client} />
      </div>
      <div className="flex justify-center py-3 text-muted-foreground" aria-hidden="true">
        <ArrowDown className="size-5" />
      </div>
      <div className="rounded-xl border border-dashed border-primary/40 p-3 sm:p-4">
        <p className="mb-3 text-sm font-medium text-foreground">Managed backend platform</p>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {services.map((layer) => (
            <li key={layer.name}>
              <LayerBox layer={layer} />
            </li>
          ))}
        </ul>
      </div>
      <figcaption className="mt-4 text-sm text-muted-foreground">
        The web app calls the backend over HTTPS; the backend provides{' '}
        {services.map((layer) => layer.name.toLowerCase()).join(', ')}. {hosting}
      </figcaption>
    </figure>
  );
}
