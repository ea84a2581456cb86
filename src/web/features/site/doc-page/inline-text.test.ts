import { describe, expect, it } from 'vitest';
import { classifyHref, parseInline } from './inline-text';

describe('parseInline', () => {
  it('keeps plain text as one node', () => {
    expect(parseInline('Plain words, no markup.')).toEqual([
      { kind: 'text', text: 'Plain words, no markup.' },
    ]);
  });

  it('reads bold, code and links in order', () => {
    expect(parseInline('Use **TLS 1.3** via `fetch` — see [SSO](/sso-integration).')).toEqual([
      { kind: 'text', text: 'Use ' },
      { kind: 'bold', children: [{ kind: 'text', text: 'TLS 1.3' }] },
      { kind: 'text', text: ' via ' },
      { kind: 'code', text: 'fetch' },
      { kind: 'text', text: ' — see ' },
      { kind: 'link', href: '/sso-integration', children: [{ kind: 'text', text: 'SSO' }] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('allows a link inside bold text', () => {
    expect(parseInline('**read [the plan](/data-breach-response)**')).toEqual([
      {
        kind: 'bold',
        children: [
          { kind: 'text', text: 'read ' },
          {
            kind: 'link',
            href: '/data-breach-response',
            children: [{ kind: 'text', text: 'the plan' }],
          },
        ],
      },
    ]);
  });

  it('does not interpret code contents or unbalanced markers', () => {
    expect(parseInline('`**not bold**` and a lone ** or ` or [x](')).toEqual([
      { kind: 'code', text: '**not bold**' },
      { kind: 'text', text: ' and a lone ** or ` or [x](' },
    ]);
  });

  it('returns nothing for an empty string', () => {
    expect(parseInline('')).toEqual([]);
  });
});

describe('classifyHref', () => {
  it('routes site paths internally and keeps anchors on the page', () => {
    expect(classifyHref('/data-encryption')).toBe('internal');
    expect(classifyHref('#phase-1')).toBe('anchor');
  });

  it('loads the pages the server renders under /api/ as documents, outside the router', () => {
    expect(classifyHref('/api/reference')).toBe('server');
    expect(classifyHref('/api-access')).toBe('internal');
  });

  it('opens http(s) and mailto outside the site', () => {
    expect(classifyHref('https://gdpr.eu/')).toBe('external');
    expect(classifyHref('mailto:privacy@lyceum.education')).toBe('external');
  });

  it('refuses script and protocol-relative links', () => {
    expect(classifyHref('javascript:alert(1)')).toBe('unsafe');
    expect(classifyHref('//evil.example/x')).toBe('unsafe');
    expect(classifyHref('data:text/html,hi')).toBe('unsafe');
  });
});
