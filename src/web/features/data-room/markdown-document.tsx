import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * Document Markdown with GitHub tables and task lists. react-markdown's default URL transform
 * keeps only http, https, irc, ircs, mailto, xmpp and relative links and empties the rest
 * (javascript:, data:, …), which is the rule the viewer must follow; raw HTML is not rendered.
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

export function MarkdownDocument({ text }: { text: string }) {
  return (
    <div className="text-sm text-foreground" data-testid="document-markdown">
      <Markdown remarkPlugins={[remarkGfm]} components={components}>
        {text}
      </Markdown>
    </div>
  );
}
