import { describe, expect, it } from 'vitest';
import { inlineMarkdown, renderReferencePage } from './reference-page';

const options = { product: 'Lyceum', documentPath: '/api/openapi.json' };

function document(overrides: Record<string, unknown> = {}) {
  return {
    openapi: '3.1.0',
    info: { title: 'Test API', version: '1.2.3', description: 'Use **keys**.' },
    tags: [{ name: 'Users', description: 'People.' }],
    paths: {
      '/rest/v1/profiles': {
        get: {
          operationId: 'get_profiles',
          tags: ['Users'],
          summary: 'List users',
          parameters: [{ $ref: '#/components/parameters/limit' }],
          responses: {
            '200': {
              description: 'The rows',
              content: {
                'application/json': { schema: { $ref: '#/components/schemas/profiles' } },
              },
            },
          },
          'x-codeSamples': [
            { lang: 'Shell', label: 'curl', source: 'curl "$API_URL" -H "a: <b>"' },
          ],
        },
      },
    },
    components: {
      parameters: {
        limit: { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 0 } },
      },
      schemas: {
        profiles: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            name: { type: ['string', 'null'] },
            fields: { type: 'object', additionalProperties: { type: 'string' } },
          },
          required: ['id'],
        },
      },
    },
    ...overrides,
  };
}

describe('inlineMarkdown', () => {
  it('escapes first, so markup in the document is shown, never run', () => {
    expect(inlineMarkdown('<img src=x onerror=alert(1)> **bold**')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; <strong>bold</strong>',
    );
  });

  it('keeps code literal: no emphasis inside it', () => {
    expect(inlineMarkdown('`a*b*c` and *this*')).toBe('<code>a*b*c</code> and <em>this</em>');
  });
});

describe('renderReferencePage', () => {
  it('renders operations with their parameters, responses, models and examples', () => {
    const html = renderReferencePage(document(), options);
    expect(html).toContain('<h1>Test API reference</h1>');
    expect(html).toContain('<a href="#op-get_profiles">List users</a>');
    expect(html).toContain('<section class="operation" id="op-get_profiles"');
    expect(html).toContain('<code>limit</code> <span class="where">query</span>');
    expect(html).toContain('(from 0)');
    expect(html).toContain('<a href="#model-profiles">profiles</a>');
    expect(html).toContain('id="model-profiles"');
    expect(html).toContain('string or null');
    expect(html).toContain('object of string by name');
    expect(html).toContain('curl &quot;$API_URL&quot; -H &quot;a: &lt;b&gt;&quot;');
    expect(html).toContain('<p>Use <strong>keys</strong>.</p>');
    expect(html).not.toMatch(/<script/i);
  });

  it('escapes hostile summaries and paths', () => {
    const hostile = document({
      paths: { '/x/<b>': { post: { summary: '"><script>alert(1)</script>', responses: {} } } },
    });
    const html = renderReferencePage(hostile, options);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>/x/&lt;b&gt;</code>');
    // An operation without tags is listed under "Other", not dropped.
    expect(html).toContain('id="tag-Other"');
  });

  it('says which reference is missing rather than rendering a page without it', () => {
    const broken = document({ components: { schemas: {} } });
    expect(() => renderReferencePage(broken, options)).toThrow(
      'The OpenAPI document has no #/components/parameters/limit.',
    );
  });
});
