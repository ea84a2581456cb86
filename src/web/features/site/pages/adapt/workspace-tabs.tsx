import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Check } from 'lucide-react';
import type { WorkspaceTab } from './adapt-content';

// A grid of wrapping tabs rather than ui/tabs' inline row: its classes are written out here
// because the public site composes classes without tailwind-merge (decision 0190).
const listClasses =
  'grid h-auto w-full grid-cols-2 items-center justify-center gap-1 rounded-lg bg-muted p-[3px] text-muted-foreground sm:grid-cols-4';
const triggerClasses =
  "inline-flex h-auto flex-1 items-center justify-center gap-1.5 rounded-md border border-transparent px-2 py-2 text-sm font-medium whitespace-normal text-foreground transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-1 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-50 data-[state=active]:bg-background data-[state=active]:shadow-sm [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4";
const panelClasses =
  'flex-1 rounded-xl border bg-card p-5 shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:p-8';

/** Which tab a key moves to from `index` (WAI-ARIA tabs pattern, horizontal, wrapping). */
function targetIndex(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

/**
 * The four workspace tabs, described, with the keyboard behaviour of the WAI-ARIA tabs pattern:
 * arrow keys, Home and End move between tabs and select the one they reach, Tab moves into the
 * panel. Written out rather than Radix Tabs, whose roving-focus and collection code was 10 KB
 * gzip of this public page's JavaScript for four buttons (decision 0192). Every panel is in the
 * prerendered HTML; those not selected are `hidden`.
 */
export function WorkspaceTabs({ tabs }: { tabs: readonly WorkspaceTab[] }) {
  const id = useId();
  const [selected, setSelected] = useState(tabs[0]?.value);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  if (tabs.length === 0) return null;

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const target = targetIndex(event.key, index, tabs.length);
    if (target === undefined) return;
    event.preventDefault();
    setSelected(tabs[target]!.value);
    buttons.current[target]?.focus();
  }

  return (
    <div data-slot="tabs" className="flex flex-col gap-4">
      <div
        role="tablist"
        aria-label="Workspace tabs"
        aria-orientation="horizontal"
        data-slot="tabs-list"
        className={listClasses}
      >
        {tabs.map(({ value, label, icon: Icon }, index) => {
          const active = value === selected;
          return (
            <button
              key={value}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${value}`}
              aria-selected={active}
              aria-controls={`${id}-panel-${value}`}
              tabIndex={active ? 0 : -1}
              data-state={active ? 'active' : 'inactive'}
              data-slot="tabs-trigger"
              className={triggerClasses}
              onClick={() => setSelected(value)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              <Icon aria-hidden="true" />
              {label}
            </button>
          );
        })}
      </div>
      {tabs.map(({ value, title, text, points, icon: Icon }) => (
        <div
          key={value}
          role="tabpanel"
          id={`${id}-panel-${value}`}
          aria-labelledby={`${id}-tab-${value}`}
          tabIndex={0}
          hidden={value !== selected}
          data-state={value === selected ? 'active' : 'inactive'}
          data-slot="tabs-content"
          className={panelClasses}
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
        </div>
      ))}
    </div>
  );
}
