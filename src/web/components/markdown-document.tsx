import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { cn } from '@/lib/utils';

/**
 * The one safe Markdown renderer (the data room's documents and the learning app's lessons),
 * with GitHub tables and task lists. react-markdown's default URL transform keeps only http,
 * https, irc, ircs, mailto, xmpp and relative links and empties the rest (javascript:, data:,
 * …), which is the rule the spec sets for both; raw HTML is not rendered.
 */
const components: Components = {
  h1: (props) => <h1 className="mt-2 mb-4 text-2xl font-semibold tracking-tight" {...props} />,
  h2: (props) => <h2 className="mt-8 mb-3 border-b pb-1 text-xl font-semibold" {...props} />,
  h3: (props) => <h3 className="mt-6 mb-2 text-lg font-semibold" {...props} />,
  p: (props) => <p className="my-3 leading-7" {...props} />,
  ul: (props) => <ul className="my-3 list-disc space-y-1 pl-6" {...props} />,
  ol: (props) => <ol className="my-3 list-decimal space-y-1 pl-6" {...props} />,
  blockquote: (props) => (
    <blockquote
      className="my-4 border-l-4 border-highlight bg-muted/60 px-4 py-2 text-sm text-muted-foreground"
      {...props}
    />
  ),
  a: ({ href, ...props }) => (
    <a
      href={href}
      className="font-medium text-info underline underline-offset-2"
      target={href?.startsWith('http') ? '_blank' : undefined}
      rel="noopener noreferrer"
      {...props}
    />
  ),
  // Wide tables and code scroll sideways on phones; tabIndex lets keyboards scroll them too.
  table: (props) => (
    <div className="my-4 w-full overflow-x-auto" tabIndex={0} role="region" aria-label="Table">
      <table className="w-full border-collapse text-sm" {...props} />
    </div>
  ),
  th: (props) => (
    <th className="border bg-muted px-3 py-2 text-left align-top font-semibold" {...props} />
  ),
  td: (props) => <td className="border px-3 py-2 align-top" {...props} />,
  code: (props) => (
    <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]" {...props} />
  ),
  pre: (props) => (
    <pre
      tabIndex={0}
      className="my-4 overflow-x-auto rounded-md bg-muted p-4 font-mono text-xs leading-5 [&_code]:bg-transparent [&_code]:p-0"
      {...props}
    />
  ),
  hr: () => <hr className="my-6" />,
};

// A page that already has its own h1 (a lesson titled above its text) shifts the document's
// headings one level down, so the outline stays one h1 and no skipped levels.
const demotedComponents: Components = {
  ...components,
  h1: (props) => <h2 className="mt-2 mb-4 text-2xl font-semibold tracking-tight" {...props} />,
  h2: (props) => <h3 className="mt-8 mb-3 border-b pb-1 text-xl font-semibold" {...props} />,
  h3: (props) => <h4 className="mt-6 mb-2 text-lg font-semibold" {...props} />,
  h4: (props) => <h5 className="mt-4 mb-2 font-semibold" {...props} />,
};

export function MarkdownDocument({
  text,
  className,
  demoteHeadings = false,
}: {
  text: string;
  className?: string;
  demoteHeadings?: boolean;
}) {
  return (
    <div className={cn('text-sm text-foreground', className)} data-testid="document-markdown">
      <Markdown
        remarkPlugins={[remarkGfm]}
        components={demoteHeadings ? demotedComponents : components}
      >
        {text}
      </Markdown>
    </div>
  );
}
