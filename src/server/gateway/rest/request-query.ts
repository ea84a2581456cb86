/**
 * Reads a request's query string and headers into a ReadRequest plus the PostgREST
 * preferences (`Prefer`, `Range`, `Accept`).
 */
import { parseError, rangeNotSatisfiable } from './errors';
import {
  parseFieldPath,
  parseLogicTree,
  parseOperation,
  parseOrder,
  parseSelect,
} from './query-grammar';
import {
  emptyScope,
  type BodyFormat,
  type EmbedScope,
  type ReadRequest,
  type Scope,
} from './read-query';

/** Query parameters that are never filters. */
const reserved = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);

function nonNegativeInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text)) {
    throw parseError(
      `"failed to parse ${name} parameter (${text})"`,
      'expected a non-negative integer',
    );
  }
  return Number(text);
}

/**
 * Splits `a.b.key` into the embed path `[a, b]` and `key`. Column names cannot contain a dot
 * unless quoted, and JSON arrows come after the column, so every unquoted dot before the first
 * arrow ends an embedded resource's name.
 */
function scopeOf(key: string): [string[], string] {
  const arrow = key.indexOf('->');
  const head = arrow < 0 ? key : key.slice(0, arrow);
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < head.length; i++) {
    if (head[i] === '"') quoted = !quoted;
    else if (head[i] === '.' && !quoted) {
      parts.push(head.slice(start, i));
      start = i + 1;
    }
  }
  const local = key.slice(start);
  // `not.or` / `not.and` are negated logic trees, not an embed called "not".
  if (parts[parts.length - 1] === 'not' && (local === 'or' || local === 'and')) {
    parts.pop();
    return [parts.map(unquoteName), `not.${local}`];
  }
  return [parts.map(unquoteName), local];
}

const unquoteName = (name: string) =>
  name.length >= 2 && name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1) : name;

export interface ParsedQuery {
  read: ReadRequest;
  /** Arguments for GET /rpc: parameters that are not reserved and not filters. */
  rest: Map<string, string>;
}

/**
 * `isArgument` lets GET /rpc claim parameters named like the function's arguments before
 * they are read as filters.
 */
export function parseQuery(
  search: URLSearchParams,
  isArgument: (key: string) => boolean = () => false,
): ParsedQuery {
  const root = emptyScope();
  const embeds = new Map<string, EmbedScope>();
  const rest = new Map<string, string>();
  const scopeFor = (path: string[]): Scope => {
    let scope: Scope = root;
    let level = embeds;
    for (const name of path) {
      let next = level.get(name);
      if (!next) {
        next = { ...emptyScope(), embeds: new Map() };
        level.set(name, next);
      }
      scope = next;
      level = next.embeds;
    }
    return scope;
  };
  let select = parseSelect('*');
  for (const [key, value] of search) {
    if (key === 'select') {
      select = parseSelect(value);
      continue;
    }
    if (key === 'columns' || key === 'on_conflict') continue;
    if (isArgument(key)) {
      rest.set(key, value);
      continue;
    }
    const [path, local] = scopeOf(key);
    const scope = scopeFor(path);
    if (local === 'order') scope.order.push(...parseOrder(value));
    else if (local === 'limit') scope.limit = nonNegativeInteger('limit', value);
    else if (local === 'offset') scope.offset = nonNegativeInteger('offset', value);
    else if (local === 'or' || local === 'and' || local === 'not.or' || local === 'not.and') {
      const negate = local.startsWith('not.');
      scope.filters.push(
        parseLogicTree(
          negate ? (local.slice(4) as 'or' | 'and') : (local as 'or' | 'and'),
          negate,
          value,
        ),
      );
    } else if (reserved.has(local)) {
      throw parseError(`"failed to parse ${key}"`, `${local} cannot be used here`);
    } else {
      scope.filters.push(parseOperation(parseFieldPath(local, 'filter'), value, false));
    }
  }
  return { read: { select, root, embeds }, rest };
}

export interface Preferences {
  returnMode: 'minimal' | 'representation' | 'headers-only';
  returnGiven: boolean;
  /** Whether a total was asked for (`Prefer: count=…`), and how to count it. */
  count: boolean;
  countMethod?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missingDefault: boolean;
  singleObject: boolean;
  /** `handling=strict`: an unknown or unfulfillable preference is an error (PGRST122). */
  strict: boolean;
  /** `max-affected=N`, honoured only with `handling=strict`, as in PostgREST 13. */
  maxAffected?: number;
  /** Preferences not understood, in the order given. */
  invalid: string[];
  /** What we applied, for `Preference-Applied`. */
  applied: string[];
}

/** `Prefer` by RFC 7240: comma-separated `name=value` tokens, the first of a name wins. */
export function parsePrefer(header: string | undefined): Preferences {
  const prefs: Preferences = {
    returnMode: 'minimal',
    returnGiven: false,
    count: false,
    missingDefault: false,
    singleObject: false,
    strict: false,
    invalid: [],
    applied: [],
  };
  let maxAffected: { pref: string; value: number } | undefined;
  for (const raw of (header ?? '').split(',')) {
    const pref = raw.trim();
    if (pref === '') continue;
    const [name, value] = pref.split('=', 2).map((p) => p.trim());
    if (
      name === 'return' &&
      (value === 'minimal' || value === 'representation' || value === 'headers-only')
    ) {
      prefs.returnMode = value;
      prefs.returnGiven = true;
      prefs.applied.push(pref);
    } else if (
      name === 'count' &&
      (value === 'exact' || value === 'planned' || value === 'estimated')
    ) {
      prefs.count = true;
      prefs.countMethod = value;
      prefs.applied.push(pref);
    } else if (
      name === 'resolution' &&
      (value === 'merge-duplicates' || value === 'ignore-duplicates')
    ) {
      prefs.resolution = value;
      prefs.applied.push(pref);
    } else if (name === 'missing' && value === 'default') {
      prefs.missingDefault = true;
      prefs.applied.push(pref);
    } else if (name === 'params' && value === 'single-object') {
      prefs.singleObject = true;
      prefs.applied.push(pref);
    } else if (name === 'handling' && (value === 'strict' || value === 'lenient')) {
      prefs.strict = value === 'strict';
      prefs.applied.push(pref);
    } else if (name === 'max-affected' && value !== undefined && /^\d{1,15}$/.test(value)) {
      maxAffected = { pref, value: Number(value) };
    } else {
      prefs.invalid.push(pref);
    }
  }
  if (maxAffected && prefs.strict) {
    prefs.maxAffected = maxAffected.value;
    prefs.applied.push(maxAffected.pref);
  }
  return prefs;
}

/** `Range: 0-9` (items) → offset/limit; only used when the query string has none. */
export function applyRangeHeader(
  scope: Scope,
  range: string | undefined,
  unit: string | undefined,
) {
  if (!range) return;
  if (unit && unit.trim() !== 'items') return;
  const match = /^\s*(?:items=)?(\d+)-(\d*)\s*$/.exec(range);
  if (!match?.[1]) {
    throw rangeNotSatisfiable(`Invalid Range header: ${range}`);
  }
  const from = Number(match[1]);
  const to = match[2] ? Number(match[2]) : undefined;
  if (to !== undefined && to < from) {
    throw rangeNotSatisfiable(
      'The lower boundary must be lower than or equal to the upper boundary in the Range header.',
    );
  }
  if (scope.offset === undefined) scope.offset = from;
  if (scope.limit === undefined && to !== undefined) scope.limit = to - from + 1;
}

/** The response body a request's `Accept` asked for. */
export interface Media {
  /**
   * An array of rows, one object (`.single()`, 406 unless exactly one row), CSV, or the
   * query's plan (`application/vnd.pgrst.plan`, only where REST_PLAN_ENABLED allows it).
   */
  shape: 'array' | 'object' | 'csv' | 'plan';
  /** The rows' format; for a plan, that of the representation planned (its `for`). */
  format: BodyFormat;
  contentType: string;
  plan?: { format: 'json' | 'text'; options: PlanOption[] };
}

/** The EXPLAIN options PostgREST lets a plan request name (`options=analyze|verbose`). */
const PLAN_OPTIONS = ['analyze', 'verbose', 'settings', 'buffers', 'wal'] as const;
export type PlanOption = (typeof PLAN_OPTIONS)[number];

const JSON_ARRAY: Media = {
  shape: 'array',
  format: 'json',
  contentType: 'application/json; charset=utf-8',
};

/** `application/vnd.pgrst.plan[+json|+text]; for="…"; options=a|b`, or undefined if malformed. */
function planMedia(type: string, param: (name: string) => string | undefined): Media | undefined {
  const format = type.endsWith('+json') ? 'json' : 'text';
  const planned = (param('for') ?? 'application/json').replace(/^"|"$/g, '');
  const rows = mediaFor(planned, false, undefined);
  if (!rows || rows.shape === 'plan') return undefined;
  const named = (param('options') ?? '').split('|').filter((option) => option !== '');
  const options = named.filter((option): option is PlanOption =>
    (PLAN_OPTIONS as readonly string[]).includes(option),
  );
  if (options.length !== named.length) return undefined;
  const forType = rows.contentType.replace(/; charset=utf-8$/, '');
  return {
    shape: 'plan',
    format: rows.format,
    contentType: `application/vnd.pgrst.plan+${format}; for="${forType}"; charset=utf-8`,
    plan: { format, options },
  };
}

function mediaFor(
  type: string,
  stripped: boolean,
  param: ((name: string) => string | undefined) | undefined,
): Media | undefined {
  if (param && /^application\/vnd\.pgrst\.plan(\+json|\+text)?$/.test(type)) {
    return planMedia(type, param);
  }
  // PostgREST's spelling of the vendor types it answers with: no space before `nulls`.
  const nulls = stripped ? ';nulls=stripped' : '';
  const format: BodyFormat = stripped ? 'json-stripped' : 'json';
  switch (type) {
    case 'application/json':
    case 'application/*':
    case '*/*':
      return JSON_ARRAY;
    // PostgREST takes the names without `+json` too. An array without `nulls=stripped` is
    // plain JSON to it, answered as `application/json` (decision 0049).
    case 'application/vnd.pgrst.array':
    case 'application/vnd.pgrst.array+json':
      if (!stripped) return JSON_ARRAY;
      return {
        shape: 'array',
        format,
        contentType: `application/vnd.pgrst.array+json${nulls}; charset=utf-8`,
      };
    case 'application/vnd.pgrst.object':
    case 'application/vnd.pgrst.object+json':
      return {
        shape: 'object',
        format,
        contentType: `application/vnd.pgrst.object+json${nulls}; charset=utf-8`,
      };
    case 'text/csv':
      return { shape: 'csv', format: 'csv', contentType: 'text/csv; charset=utf-8' };
    case 'application/geo+json':
      return {
        shape: 'array',
        format: 'geojson',
        contentType: 'application/geo+json; charset=utf-8',
      };
    default:
      return undefined;
  }
}

/**
 * Content negotiation as PostgREST does it: the most preferred acceptable type we can write
 * (`q` first, then the order given); no `Accept` means JSON. Undefined when none is
 * available (406 PGRST107).
 */
export function negotiateMedia(
  accept: string | undefined,
  options: { planEnabled: boolean } = { planEnabled: false },
): Media | undefined {
  if (!accept?.trim()) return JSON_ARRAY;
  const offers = accept.split(',').map((part, index) => {
    const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const param = (name: string) =>
      params.find((p) => p.startsWith(`${name}=`))?.slice(name.length + 1);
    const q = Number(param('q') ?? '1');
    return {
      type,
      param,
      stripped: param('nulls') === 'stripped',
      q: Number.isNaN(q) ? 0 : q,
      index,
    };
  });
  offers.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const offer of offers) {
    if (offer.q <= 0) continue;
    const media = mediaFor(
      offer.type,
      offer.stripped,
      options.planEnabled ? offer.param : undefined,
    );
    if (media) return media;
  }
  return undefined;
}

/** The media types an `Accept` header named, for PGRST107's message. */
export function acceptedTypes(accept: string): string[] {
  return accept
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter((type) => type !== '');
}
