import { Check } from 'lucide-react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { TabsContent } from '@/components/ui/tabs';
import type { WorkspaceTab } from './adapt-content';

// A grid of wrapping tabs rather than ui/tabs' inline row: its classes are written out here
// because the public site composes classes without tailwind-merge (decision 0190).
const listClasses =
  'grid h-auto w-full grid-cols-2 items-center justify-center gap-1 rounded-lg bg-muted p-[3px] text-muted-foreground sm:grid-cols-4';
const triggerClasses =
  "inline-flex h-auto flex-1 items-center justify-center gap-1.5 rounded-md border border-transparent px-2 py-2 text-sm font-medium whitespace-normal text-foreground transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-1 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:shadow-sm [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4";

/**
 * The four workspace tabs, described. Radix Tabs give the keyboard behaviour of the WAI-ARIA
 * tabs pattern: arrow keys move between tabs, Tab moves into the panel.
 */
export function WorkspaceTabs({ tabs }: { tabs: readonly WorkspaceTab[] }) {
  const first = tabs[0];
  if (!first) return null;
  return (
    <TabsPrimitive.Root data-slot="tabs" defaultValue={first.value} className="flex flex-col gap-4">
      <TabsPrimitive.List data-slot="tabs-list" aria-label="Workspace tabs" className={listClasses}>
        {tabs.map(({ value, label, icon: Icon }) => (
          <TabsPrimitive.Trigger
            key={value}
            data-slot="tabs-trigger"
            value={value}
            className={triggerClasses}
          >
            <Icon aria-hidden="true" />
            {label}
          </TabsPrimitive.Trigger>
        ))}
      </TabsPrimitive.List>
      {tabs.map(({ value, title, text, points, icon: Icon }) => (
        <TabsContent
          key={value}
          value={value}
          className="rounded-xl border bg-card p-5 shadow-xs sm:p-8"
        >
          <div className="flex items-start gap-4">
            <span className="hidden size-12 shrink-0 items-center justify-center rounded-xl bg-primary/10 text-primary sm:inline-flex">
              <Icon className="size-6" aria-hidden="true" />
            </span>
            <div>
              <h3 className="text-xl font-semibold text-foreground">{title}</h3>
              <p className="mt-2 leading-relaxed text-muted-foreground">{text}</p>
              <ul className="mt-5 space-y-3">
                {points.map((point) => (
                  <li key={point} className="flex gap-2 text-sm leading-relaxed text-foreground">
                    <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    {point}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </TabsContent>
      ))}
    </TabsPrimitive.Root>
  );
}
