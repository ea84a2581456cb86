import { CircleCheck, Info, TriangleAlert } from 'lucide-react';
import type { Block } from '@/features/site/content/types';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { docIcons } from './doc-icons';
import { InlineText } from './inline-text';

const calloutTones = {
  info: { icon: Info, label: 'Note', className: 'border-info/30 bg-info/5 [&>svg]:text-info' },
  warning: {
    icon: TriangleAlert,
    label: 'Important',
    className: 'border-warning/35 bg-warning/5 [&>svg]:text-warning',
  },
  success: {
    icon: CircleCheck,
    label: 'Good to know',
    className: 'border-success/30 bg-success/5 [&>svg]:text-success',
  },
} as const;

export function DocBlock({ block }: { block: Block }) {
  switch (block.type) {
    case 'paragraph':
      return (
        <p className="leading-7 text-foreground/90">
          <InlineText text={block.text} />
        </p>
      );

    case 'list': {
      const List = block.ordered ? 'ol' : 'ul';
      return (
        <List
          className={cn(
            'space-y-2 pl-6 leading-7 text-foreground/90 marker:text-primary/70',
            block.ordered ? 'list-decimal marker:font-semibold' : 'list-disc',
          )}
        >
          {block.items.map((item, index) => (
            <li key={index} className="pl-1">
              <InlineText text={item} />
            </li>
          ))}
        </List>
      );
    }

    case 'table':
      return (
        <div className="overflow-hidden rounded-lg border">
          {/* The caption is shown above the scroll area so a wide table never scrolls it out
              of view; the real <caption> below names the table for assistive technology. */}
          <p
            aria-hidden="true"
            className="border-b bg-muted/60 px-3 py-2.5 text-sm font-medium text-foreground"
          >
            {block.caption}
          </p>
          <Table regionLabel={block.caption}>
            <TableCaption className="sr-only">{block.caption}</TableCaption>
            <TableHeader className="bg-muted/30">
              {/* A header row is not highlighted on hover, unlike TableRow's body rows. */}
              <tr data-slot="table-row" className="border-b">
                {block.columns.map((column) => (
                  <TableHead key={column} scope="col">
                    {column}
                  </TableHead>
                ))}
              </tr>
            </TableHeader>
            <TableBody>
              {block.rows.map((row, rowIndex) => (
                <TableRow key={rowIndex}>
                  {row.map((cell, cellIndex) => (
                    <TableCell
                      key={cellIndex}
                      className={cn(
                        'min-w-28 leading-6',
                        cellIndex === 0 && 'font-medium text-foreground',
                      )}
                    >
                      <InlineText text={cell} />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      );

    case 'callout': {
      const tone = calloutTones[block.tone];
      const Icon = tone.icon;
      return (
        <div
          role="note"
          aria-label={block.title ?? tone.label}
          className={cn(
            'grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg border px-4 py-3.5 [&>svg]:mt-0.5 [&>svg]:size-5',
            tone.className,
          )}
        >
          <Icon aria-hidden="true" />
          <div className="space-y-1">
            {block.title && <p className="font-semibold text-foreground">{block.title}</p>}
            <p className="leading-7 text-foreground/90">
              <InlineText text={block.text} />
            </p>
          </div>
        </div>
      );
    }

    case 'code':
      return (
        <figure className="overflow-hidden rounded-lg border border-primary/20 bg-[#0f1b2d]">
          {(block.language || block.caption) && (
            <figcaption className="flex items-center justify-between gap-3 border-b border-white/10 px-4 py-2 text-xs text-slate-300">
              <span>{block.caption}</span>
              {block.language && (
                <span className="font-mono tracking-wide text-slate-400 uppercase">
                  {block.language}
                </span>
              )}
            </figcaption>
          )}
          <pre
            tabIndex={0}
            aria-label={block.caption ?? `${block.language ?? 'Code'} example`}
            className="overflow-x-auto p-4 font-mono text-[0.8125rem] leading-6 text-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-white/70"
          >
            <code>{block.code}</code>
          </pre>
        </figure>
      );

    case 'cards':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          {block.items.map((item) => {
            const Icon = item.icon ? docIcons[item.icon] : undefined;
            return (
              <div
                key={item.title}
                className="flex gap-3.5 rounded-lg border bg-card p-4 shadow-xs transition-shadow hover:shadow-sm"
              >
                {Icon && (
                  <div className="flex size-9 shrink-0 items-center justify-center rounded-md bg-secondary text-primary">
                    <Icon className="size-[1.125rem]" aria-hidden="true" />
                  </div>
                )}
                <div className="min-w-0 space-y-1">
                  <h3 className="font-semibold text-foreground">{item.title}</h3>
                  <p className="text-sm leading-6 text-muted-foreground">
                    <InlineText text={item.text} />
                  </p>
                </div>
              </div>
            );
          })}
        </div>
      );

    case 'steps':
      return (
        <ol className="relative space-y-6 border-l-2 border-border pl-0">
          {block.items.map((item, index) => (
            <li key={item.title} className="relative pl-9">
              <span
                aria-hidden="true"
                className="absolute top-0 -left-[1.0625rem] flex size-8 items-center justify-center rounded-full border-2 border-background bg-primary text-sm font-semibold text-primary-foreground"
              >
                {index + 1}
              </span>
              <h3 className="pt-1 font-semibold text-foreground">
                <span className="sr-only">Step {index + 1}: </span>
                {item.title}
              </h3>
              <p className="mt-1 leading-7 text-foreground/90">
                <InlineText text={item.text} />
              </p>
            </li>
          ))}
        </ol>
      );

    case 'definitions':
      return (
        <dl className="divide-y rounded-lg border">
          {block.items.map((item) => (
            <div key={item.term} className="grid gap-1 px-4 py-3 sm:grid-cols-[12rem_1fr] sm:gap-4">
              <dt className="font-semibold text-foreground">
                <InlineText text={item.term} />
              </dt>
              <dd className="leading-7 text-foreground/90">
                <InlineText text={item.text} />
              </dd>
            </div>
          ))}
        </dl>
      );
  }
}
