/**
 * The public API's reference page (/api/reference, decision 0612): the OpenAPI document
 * rendered to one HTML page on the server, with no script at all. It reads what the document
 * says — tags, operations, parameters, request bodies, responses, code samples, schemas — so
 * it changes when the document does and is never written twice.
 *
 * Every string from the document is escaped; descriptions may use the document's inline
 * Markdown (**bold**, *emphasis*, `code`), which is applied after escaping.
 */
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
  example?: unknown;
}

interface CodeSample {
  lang: string;
  label?: string;
  source: string;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, Json> };
  responses?: Record<string, Json>;
  'x-codeSamples'?: CodeSample[];
}

interface Tag {
  name: string;
  description?: string;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The document's inline Markdown, on escaped text; code spans first, so they stay literal. */
export function inlineMarkdown(text: string): string {
  // Split with a capture: the code spans are the odd parts.
  return text
    .split(/(`[^`]+`)/)
    .map((part, index) =>
      index % 2 === 1
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part)
            .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
            .replace(/\*(.+?)\*/g, '<em>$1</em>'),
    )
    .join('');
}

function paragraphs(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((part) => `<p>${inlineMarkdown(part.trim())}</p>`)
    .join('');
}

/** An id safe in HTML and in a URL fragment. */
function anchor(prefix: string, name: string): string {
  return `${prefix}-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

function resolve<T>(document: Json, value: T | { $ref: string }): T {
  if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
    let target: unknown = document;
    for (const part of value.$ref.replace(/^#\//, '').split('/'))
      target = (target as Json | undefined)?.[part];
    if (target === undefined) throw new Error(`The OpenAPI document has no ${value.$ref}.`);
    return target as T;
  }
  return value as T;
}

/** A schema's type in a few words, linking a named model to its section. */
function typeLabel(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#${anchor('model', name)}">${escapeHtml(name)}</a>`;
  }
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(', ')}`;
  const variants = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (Array.isArray(variants)) return variants.map(typeLabel).join(' or ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  return types
    .filter(Boolean)
    .map((type) => {
      if (type === 'array') return `array of ${typeLabel(schema.items as Json | undefined)}`;
      if (type === 'null') return 'null';
      const values = schema.additionalProperties;
      if (type === 'object' && values && typeof values === 'object' && !schema.properties)
        return `object of ${typeLabel(values as Json)} by name`;
      return escapeHtml(schema.format ? `${type} (${String(schema.format)})` : type);
    })
    .join(' or ');
}

const limits: [string, string][] = [
  ['minLength', 'at least {} characters'],
  ['maxLength', 'at most {} characters'],
  ['minimum', 'from {}'],
  ['maximum', 'up to {}'],
  ['minItems', 'at least {} items'],
  ['maxItems', 'at most {} items'],
  ['default', 'default {}'],
];

function constraints(schema: Json): string {
  const words = limits
    .filter(([key]) => schema[key] !== undefined)
    .map(([key, words]) => words.replace('{}', JSON.stringify(schema[key])));
  return words.length ? ` <span class="limits">(${escapeHtml(words.join(', '))})</span>` : '';
}

/** An object's fields as a definition list, nested objects inside their field. */
function schemaBody(document: Json, schema: Json | undefined, depth = 0): string {
  if (!schema || depth > 6) return '';
  if (typeof schema.$ref === 'string') return '';
  const variants = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (Array.isArray(variants) && variants.some((v) => v.type === 'object')) {
    return `<ol class="variants">${variants
      .map(
        (variant, index) =>
          `<li><p class="variant">Form ${index + 1}: ${typeLabel(variant)}</p>${schemaBody(document, variant, depth + 1)}</li>`,
      )
      .join('')}</ol>`;
  }
  if (schema.type === 'array') return schemaBody(document, schema.items as Json, depth + 1);
  const properties = schema.properties as Record<string, Json> | undefined;
  if (!properties) return '';
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return `<dl class="fields">${Object.entries(properties)
    .map(
      ([name, field]) =>
        `<dt><code>${escapeHtml(name)}</code> <span class="type">${typeLabel(field)}</span>${
          required.has(name) ? ' <span class="required">required</span>' : ''
        }${constraints(field)}</dt><dd>${
          field.description ? inlineMarkdown(String(field.description)) : ''
        }${schemaBody(document, field, depth + 1)}</dd>`,
    )
    .join('')}</dl>`;
}

function parametersSection(document: Json, operation: Operation): string {
  const parameters = (operation.parameters ?? []).map((p) => resolve<Parameter>(document, p));
  if (parameters.length === 0) return '';
  const items = parameters
    .map(
      (p) =>
        `<dt><code>${escapeHtml(p.name)}</code> <span class="where">${escapeHtml(p.in)}</span> <span class="type">${typeLabel(
          p.schema,
        )}</span>${p.required ? ' <span class="required">required</span>' : ''}${
          p.schema ? constraints(p.schema) : ''
        }</dt><dd>${p.description ? inlineMarkdown(p.description) : ''}${
          p.example !== undefined
            ? `<span class="example">Example: <code>${escapeHtml(String(p.example))}</code></span>`
            : ''
        }</dd>`,
    )
    .join('');
  return `<h4>Parameters</h4><dl class="fields">${items}</dl>`;
}

function bodySection(document: Json, operation: Operation): string {
  const body = operation.requestBody;
  if (!body?.content) return '';
  return `<h4>Request body${body.required ? '' : ' (optional)'}</h4>${paragraphs(body.description)}${Object.entries(
    body.content,
  )
    .map(
      ([media, content]) =>
        `<p><code>${escapeHtml(media)}</code>: ${typeLabel(content.schema as Json)}</p>${schemaBody(
          document,
          content.schema as Json,
        )}`,
    )
    .join('')}`;
}

function responsesSection(document: Json, operation: Operation): string {
  const rows = Object.entries(operation.responses ?? {})
    .map(([status, value]) => {
      const response = resolve<{ description?: string; content?: Record<string, Json> }>(
        document,
        value as Json,
      );
      const schema = response.content && Object.values(response.content)[0]?.schema;
      const shape =
        schema && typeof (schema as Json).$ref === 'string' ? typeLabel(schema as Json) : '';
      return `<tr><th scope="row"><code>${escapeHtml(status)}</code></th><td>${inlineMarkdown(
        response.description ?? '',
      )}${shape ? ` (${shape})` : ''}</td></tr>`;
    })
    .join('');
  if (!rows) return '';
  return `<h4>Responses</h4><table><thead><tr><th scope="col">Status</th><th scope="col">Meaning</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function samplesSection(operation: Operation): string {
  const samples = operation['x-codeSamples'] ?? [];
  if (samples.length === 0) return '';
  return `<h4>Examples</h4>${samples
    .map(
      (sample) =>
        `<figure><figcaption>${escapeHtml(sample.label ?? sample.lang)}</figcaption><pre tabindex="0"><code>${escapeHtml(
          sample.source,
        )}</code></pre></figure>`,
    )
    .join('')}`;
}

interface Entry {
  method: string;
  path: string;
  operation: Operation;
  id: string;
}

function operationsOf(document: Json): Entry[] {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    methods
      .filter((method) => item[method])
      .map((method) => {
        const operation = item[method]!;
        return {
          method,
          path,
          operation,
          id: anchor('op', operation.operationId ?? `${method}-${path}`),
        };
      }),
  );
}

function operationSection(document: Json, entry: Entry): string {
  const { method, path, operation, id } = entry;
  return `<section class="operation" id="${id}" aria-labelledby="${id}-title">
<h3 id="${id}-title">${escapeHtml(operation.summary ?? `${method.toUpperCase()} ${path}`)}</h3>
<p class="endpoint"><span class="method method-${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></p>
${paragraphs(operation.description)}${parametersSection(document, operation)}${bodySection(
    document,
    operation,
  )}${responsesSection(document, operation)}${samplesSection(operation)}
</section>`;
}

const style = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f1b2d;background:#fff}
a{color:#1d3461;text-underline-offset:3px}
a:focus-visible,pre:focus-visible{outline:3px solid #3556c8;outline-offset:2px;border-radius:2px}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875em}
code{background:#f3f5f9;border-radius:4px;padding:.1em .3em;overflow-wrap:anywhere}
pre{background:#0f1b2d;color:#f3f5f9;padding:1rem;border-radius:8px;overflow-x:auto;line-height:1.5}
pre code{background:none;padding:0;color:inherit;overflow-wrap:normal}
.skip{position:absolute;left:-10000px;top:0;background:#1d3461;color:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:1rem;top:1rem}
header.top{border-bottom:1px solid #dbe2ec;padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header.top .brand{font-weight:700;color:#0f1b2d;text-decoration:none}
header.top ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:0;padding:0}
.layout{display:grid;grid-template-columns:minmax(0,1fr);max-width:80rem;margin:0 auto}
nav.contents{padding:1rem;border-bottom:1px solid #dbe2ec;font-size:.9375rem}
nav.contents h2{font-size:1rem;margin:0 0 .5rem;padding:0;border:0}
.example{display:block}
nav.contents ul{list-style:none;margin:0;padding:0}
nav.contents li li{margin:.15rem 0 .15rem .75rem}
nav.contents .tag{font-weight:600;margin-top:.75rem}
main{padding:1rem;min-width:0}
h1{font-size:2rem;line-height:1.2;margin:.5rem 0 1rem}
h2{font-size:1.5rem;margin:2.5rem 0 .5rem;padding-top:1rem;border-top:1px solid #dbe2ec}
h3{font-size:1.2rem;margin:2rem 0 .25rem}
h4{font-size:1rem;margin:1.25rem 0 .25rem}
.endpoint{margin:.25rem 0 .75rem;overflow-wrap:anywhere}
.method{display:inline-block;min-width:4.2em;text-align:center;font:700 .8rem/1.6 ui-monospace,monospace;border-radius:4px;padding:0 .4em;border:1px solid currentColor}
.method-get{color:#1f5f2e}.method-post{color:#1d3f8a}.method-put,.method-patch{color:#7a4100}.method-delete{color:#9b1c1c}
dl.fields{margin:.25rem 0;padding:0}
dl.fields dt{margin-top:.6rem}
dl.fields dd{margin:0 0 0 1rem;color:#2d3a4d}
dl.fields dd dl.fields{border-left:2px solid #dbe2ec;padding-left:.75rem}
.type{color:#4a5568;font-size:.9375rem}
.where{font-size:.8125rem;color:#4a5568;border:1px solid #dbe2ec;border-radius:999px;padding:0 .45em}
.required{font-size:.8125rem;font-weight:600;color:#9b1c1c}
.limits{color:#4a5568;font-size:.875rem}
ol.variants{padding-left:1.25rem}
.variant{margin:.5rem 0 0;font-weight:600}
table{border-collapse:collapse;width:100%;font-size:.9375rem}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #dbe2ec}
figure{margin:.75rem 0}
figcaption{font-size:.875rem;color:#4a5568;margin-bottom:.25rem}
footer{border-top:1px solid #dbe2ec;padding:1rem;font-size:.875rem;color:#4a5568}
@media (min-width:64rem){
.layout{grid-template-columns:18rem minmax(0,1fr)}
nav.contents{border-bottom:0;border-right:1px solid #dbe2ec;position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto}
main{padding:1.5rem 2.5rem}
}
@media (prefers-contrast:more){.type,.where,.limits,figcaption,footer{color:#1f2937}}
`;

/** The style's hash, so the page's Content-Security-Policy allows that style and nothing else. */
export const referenceStyleHash = `sha256-${createHash('sha256').update(style).digest('base64')}`;

export interface ReferencePageOptions {
  /** The product's name, for the title and header. */
  product: string;
  /** Where the document itself is served, for the download link. */
  documentPath: string;
}

/** The whole page as HTML. Throws when the document names a `$ref` it does not contain. */
export function renderReferencePage(document: Json, options: ReferencePageOptions): string {
  const info = (document.info ?? {}) as Json;
  const title = String(info.title ?? `${options.product} API`);
  const servers = (document.servers ?? []) as { url: string }[];
  const entries = operationsOf(document);
  const declared = ((document.tags ?? []) as Tag[]).map((tag) => tag.name);
  const used = entries.flatMap((entry) => entry.operation.tags ?? ['Other']);
  const tagNames = [...new Set([...declared, ...used])].filter((name) => used.includes(name));
  const tagInfo = new Map(((document.tags ?? []) as Tag[]).map((tag) => [tag.name, tag]));
  const inTag = (name: string) =>
    entries.filter((entry) => (entry.operation.tags ?? ['Other'])[0] === name);
  const schemes = Object.entries(
    ((document.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>,
  );
  const models = Object.entries(
    ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>,
  );

  const contents = `<nav class="contents" aria-labelledby="contents-title"><h2 id="contents-title">Contents</h2><ul>
<li><a href="#overview">Overview</a></li>
${tagNames
  .map(
    (name) =>
      `<li><p class="tag"><a href="#${anchor('tag', name)}">${escapeHtml(name)}</a></p><ul>${inTag(
        name,
      )
        .map(
          (entry) =>
            `<li><a href="#${entry.id}">${escapeHtml(entry.operation.summary ?? entry.path)}</a></li>`,
        )
        .join('')}</ul></li>`,
  )
  .join('\n')}
${models.length ? '<li><p class="tag"><a href="#models">Models</a></p></li>' : ''}
</ul></nav>`;

  const overview = `<section id="overview" aria-labelledby="overview-title">
<h2 id="overview-title">Overview</h2>
<p>Version ${escapeHtml(String(info.version ?? ''))} · OpenAPI ${escapeHtml(String(document.openapi ?? ''))} · <a href="${escapeHtml(
    options.documentPath,
  )}">Download the OpenAPI document</a></p>
${paragraphs(info.description as string | undefined)}
${servers.length ? `<h3>Server</h3><p><code>${escapeHtml(servers[0]!.url)}</code></p>` : ''}
${
  schemes.length
    ? `<h3>Authentication</h3><dl class="fields">${schemes
        .map(
          ([name, scheme]) =>
            `<dt><code>${escapeHtml(name)}</code> <span class="type">${escapeHtml(
              scheme.type === 'apiKey'
                ? `${String(scheme.name)} ${String(scheme.in)}`
                : `${String(scheme.scheme ?? scheme.type)} token`,
            )}</span></dt><dd>${inlineMarkdown(String(scheme.description ?? ''))}</dd>`,
        )
        .join('')}</dl>`
    : ''
}
</section>`;

  const groups = tagNames
    .map(
      (
        name,
      ) => `<section id="${anchor('tag', name)}" aria-labelledby="${anchor('tag', name)}-title">
<h2 id="${anchor('tag', name)}-title">${escapeHtml(name)}</h2>
${paragraphs(tagInfo.get(name)?.description)}
${inTag(name)
  .map((entry) => operationSection(document, entry))
  .join('\n')}
</section>`,
    )
    .join('\n');

  const modelSection = models.length
    ? `<section id="models" aria-labelledby="models-title"><h2 id="models-title">Models</h2>
${models
  .map(
    ([name, schema]) =>
      `<section id="${anchor('model', name)}" aria-labelledby="${anchor('model', name)}-title"><h3 id="${anchor(
        'model',
        name,
      )}-title"><code>${escapeHtml(name)}</code></h3>${paragraphs(
        schema.description as string | undefined,
      )}${schemaBody(document, schema)}</section>`,
  )
  .join('\n')}</section>`
    : '';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} reference | ${options.product}`)}</title>
<meta name="description" content="${escapeHtml(`Every operation of the ${title}, with parameters, responses and examples in curl and supabase-js.`)}">
<style>${style}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the reference</a>
<header class="top"><a class="brand" href="/">${escapeHtml(options.product)}</a>
<nav aria-label="Related pages"><ul><li><a href="/api-access">API access guide</a></li><li><a href="/app/org/api-keys">API keys</a></li><li><a href="${escapeHtml(
    options.documentPath,
  )}">OpenAPI document (JSON)</a></li></ul></nav></header>
<div class="layout">
${contents}
<main id="main" tabindex="-1">
<h1>${escapeHtml(title)} reference</h1>
${overview}
${groups}
${modelSection}
</main>
</div>
<footer>Generated from the OpenAPI document this server publishes at <a href="${escapeHtml(
    options.documentPath,
  )}">${escapeHtml(options.documentPath)}</a>.</footer>
</body>
</html>
`;
}
