import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The inline markup of documentation content: **bold**, `code` and [text](href). Nothing else
 * is interpreted; anything that does not match is shown as written.
 */
export type InlineNode =
  | { kind: 'text'; text: string }
  | { kind: 'bold'; children: InlineNode[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: InlineNode[] };

const TOKEN = /\*\*(.+?)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)/g;

export function parseInline(source: string): InlineNode[] {
  const nodes: InlineNode[] = [];
  let last = 0;
  for (const match of source.matchAll(TOKEN)) {
    const index = match.index;
    if (index > last) nodes.push({ kind: 'text', text: source.slice(last, index) });
    const [, bold, code, linkText, href] = match;
    if (bold !== undefined) nodes.push({ kind: 'bold', children: parseInline(bold) });
    else if (code !== undefined) nodes.push({ kind: 'code', text: code });
    else if (linkText !== undefined && href !== undefined)
      nodes.push({ kind: 'link', href, children: parseInline(linkText) });
    last = index + match[0].length;
  }
  if (last < source.length) nodes.push({ kind: 'text', text: source.slice(last) });
  return nodes;
}

export type LinkTarget = 'internal' | 'server' | 'anchor' | 'external' | 'unsafe';

/**
 * Site paths go through the router, except /api/, whose pages the server renders outside the
 * app; only http(s) and mailto leave the site; the rest is text.
 */
export function classifyHref(href: string): LinkTarget {
  if (href.startsWith('/api/')) return 'server';
  if (href.startsWith('/') && !href.startsWith('//')) return 'internal';
  if (href.startsWith('#')) return 'anchor';
  if (/^(https?:\/\/|mailto:)/i.test(href)) return 'external';
  return 'unsafe';
}

function renderNodes(nodes: InlineNode[]): ReactNode[] {
  return nodes.map((node, index) => {
    switch (node.kind) {
      case 'text':
        return <Fragment key={index}>{node.text}</Fragment>;
      case 'bold':
        return (
          <strong key={index} className="font-semibold text-foreground">
            {renderNodes(node.children)}
          </strong>
        );
      case 'code':
        return (
          <code
            key={index}
            className="rounded bg-muted px-1.5 py-0.5 font-mono text-[0.875em] text-foreground"
          >
            {node.text}
          </code>
        );
      case 'link': {
        const children = renderNodes(node.children);
        const className =
          'font-medium text-primary underline decoration-primary/40 underline-offset-4 hover:decoration-primary';
        switch (classifyHref(node.href)) {
          case 'internal':
            return (
              <Link key={index} to={node.href} className={className}>
                {children}
              </Link>
            );
          case 'server':
          case 'anchor':
            return (
              <a key={index} href={node.href} className={className}>
                {children}
              </a>
            );
          case 'external':
            return (
              <a
                key={index}
                href={node.href}
                className={className}
                {...(node.href.startsWith('mailto:')
                  ? {}
                  : { target: '_blank', rel: 'noopener noreferrer' })}
              >
                {children}
              </a>
            );
          case 'unsafe':
            return <Fragment key={index}>{children}</Fragment>;
        }
      }
    }
  });
}

export function InlineText({ text }: { text: string }) {
  return <>{renderNodes(parseInline(text))}</>;
}
