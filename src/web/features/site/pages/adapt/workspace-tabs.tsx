import { Check } from 'lucide-react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { WorkspaceTab } from './adapt-content';

/**
 * The four workspace tabs, described. Radix Tabs give the keyboard behaviour of the WAI-ARIA
 * tabs pattern: arrow keys move between tabs, Tab moves into the panel.
 */
export function WorkspaceTabs({ tabs }: { tabs: readonly WorkspaceTab[] }) {
  const first = tabs[0];
  if (!first) return null;
  return (
    <Tabs defaultValue={first.value} className="gap-4">
      <TabsList
        aria-label="Workspace tabs"
        className="grid h-auto w-full grid-cols-2 gap-1 sm:grid-cols-4"
      >
        {tabs.map(({ value, label, icon: Icon }) => (
          <TabsTrigger key={value} value={value} className="h-auto py-2 whitespace-normal">
            <Icon aria-hidden="true" />
            {label}
          </TabsTrigger>
        ))}
      </TabsList>
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
    </Tabs>
  );
}
