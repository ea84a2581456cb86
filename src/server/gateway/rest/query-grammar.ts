/**
 * Parses PostgREST's query-string language (`select`, filters, `or`/`and` trees, `order`) into
 * plain data. Nothing here touches SQL: names are checked against the schema cache and every
 * value is bound as a parameter later.
 */
import { parseError } from './errors';

export interface JsonStep {
  arrow: '->' | '->>';
  /** A key, or an array index when it is an integer. */
  key: string;
}

export interface FieldPath {
  column: string;
  json: JsonStep[];
}

export type SelectItem =
  | { kind: 'star' }
  | {
      kind: 'field';
      /** `{ column: '*' }` with `count()`, which counts rows. */
      field: FieldPath;
      alias?: string;
      cast?: string;
      /** `col.sum()::int`: an aggregate over the level's rows, grouped by its other columns. */
      aggregate?: Aggregate;
    }
  | EmbedItem;

export const aggregateFunctions = ['sum', 'avg', 'count', 'max', 'min'] as const;
export interface Aggregate {
  fn: (typeof aggregateFunctions)[number];
  /** The cast applied to the aggregate's result. */
  cast?: string;
}

export interface EmbedItem {
  kind: 'embed';
  relation: string;
  alias?: string;
  /** A foreign key name or column that picks the relationship when several exist. */
  hint?: string;
  /** `!inner`: parent rows without a matching embedded row are left out. */
  inner: boolean;
  /** `...relation(cols)`: the embedded columns join the parent's instead of nesting. */
  spread: boolean;
  select: SelectItem[];
}

export const operators = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'isdistinct',
  'in',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
] as const;
export type Operator = (typeof operators)[number];
const operatorSet = new Set<string>(operators);
const textSearchOps = new Set<string>(['fts', 'plfts', 'phfts', 'wfts']);

export interface Condition {
  kind: 'cond';
  field: FieldPath;
  negate: boolean;
  op: Operator;
  /** A list for `in`, otherwise the raw text. */
  value: string | string[];
  /** Text-search configuration, e.g. `fts(english)`. */
  config?: string;
}

export interface LogicTree {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  children: FilterNode[];
}

export type FilterNode = Condition | LogicTree;

export interface OrderTerm {
  /** `order=relation(column)`: a column of a to-one embed. */
  relation?: string;
  field: FieldPath;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

class Scanner {
  pos = 0;
  constructor(
    readonly text: string,
    readonly what: string,
  ) {}
  get done() {
    return this.pos >= this.text.length;
  }
  peek(n = 1) {
    return this.text.slice(this.pos, this.pos + n);
  }
  eat(token: string): boolean {
    if (this.text.startsWith(token, this.pos)) {
      this.pos += token.length;
      return true;
    }
    return false;
  }
  expect(token: string) {
    if (!this.eat(token)) this.fail(`expected "${token}"`);
  }
  fail(problem: string): never {
    throw parseError(
      `"failed to parse ${this.what} parameter (${this.text})" (line 1, column ${this.pos + 1})`,
      `unexpected ${this.done ? 'end of input' : `"${this.peek()}"`}: ${problem}`,
    );
  }
  skipSpaces() {
    while (this.peek() === ' ') this.pos++;
  }
}

/** Unquoted names: anything but the grammar's punctuation; "-" only when it is not "->". */
function readName(s: Scanner, what = 'a name'): string {
  if (s.eat('"')) {
    const end = s.text.indexOf('"', s.pos);
    if (end < 0) s.fail('unterminated quoted name');
    const name = s.text.slice(s.pos, end);
    s.pos = end + 1;
    if (name === '') s.fail('empty quoted name');
    return name;
  }
  const start = s.pos;
  while (!s.done) {
    const ch = s.peek();
    if (',()!:."*'.includes(ch) || ch === ' ') break;
    if (ch === '-' && s.peek(2) === '->') break;
    s.pos++;
  }
  if (s.pos === start) s.fail(`expected ${what}`);
  return s.text.slice(start, s.pos);
}

function readFieldPath(s: Scanner): FieldPath {
  const column = readName(s, 'a column name');
  const json: JsonStep[] = [];
  for (;;) {
    const arrow = s.eat('->>') ? '->>' : s.eat('->') ? '->' : undefined;
    if (!arrow) break;
    json.push({ arrow, key: readName(s, 'a JSON key') });
  }
  return { column, json };
}

function parseSelectList(s: Scanner): SelectItem[] {
  const items: SelectItem[] = [];
  for (;;) {
    s.skipSpaces();
    items.push(parseSelectItem(s));
    s.skipSpaces();
    if (!s.eat(',')) break;
  }
  return items;
}

/** `name!hint!inner(…)` after the name: hints, join type and the embedded select list. */
function parseEmbed(s: Scanner, relation: string, alias: string | undefined, spread: boolean) {
  let hint: string | undefined;
  let inner = false;
  let hinted = false;
  while (s.eat('!')) {
    hinted = true;
    const word = readName(s, 'a relationship hint');
    if (word === 'inner') inner = true;
    else if (word === 'left') inner = false;
    else hint = word;
  }
  if (!s.eat('(')) return { hinted, select: undefined };
  s.skipSpaces();
  const select = s.peek() === ')' ? [] : parseSelectList(s);
  s.expect(')');
  const item: EmbedItem = { kind: 'embed', relation, alias, hint, inner, spread, select };
  return { hinted, select: item };
}

function parseSelectItem(s: Scanner): SelectItem {
  if (s.eat('*')) return { kind: 'star' };
  if (s.eat('...')) {
    const relation = readName(s, 'a relation to spread');
    const embed = parseEmbed(s, relation, undefined, true);
    if (!embed.select) s.fail('a spread needs an embedded resource, like ...relation(columns)');
    return embed.select;
  }
  let alias: string | undefined;
  const start = s.pos;
  const first = readName(s);
  if (s.peek() === ':' && s.peek(2) !== '::') {
    s.pos++;
    alias = first;
  } else {
    s.pos = start;
  }
  if (s.eat('count()')) {
    const aggregate: Aggregate = { fn: 'count', cast: readCast(s) };
    return { kind: 'field', field: { column: '*', json: [] }, alias, aggregate };
  }
  const nameStart = s.pos;
  const name = readName(s);
  const embed = parseEmbed(s, name, alias, false);
  if (embed.select) return embed.select;
  if (embed.hinted) s.fail('a relationship hint needs an embedded resource');
  s.pos = nameStart;
  const field = readFieldPath(s);
  const cast = readCast(s);
  if (!s.eat('.')) return { kind: 'field', field, alias, cast };
  const fn = readName(s, 'an aggregate function');
  if (!(aggregateFunctions as readonly string[]).includes(fn) || !s.eat('()'))
    s.fail('expected sum(), avg(), count(), max() or min()');
  const aggregate: Aggregate = { fn: fn as Aggregate['fn'], cast: readCast(s) };
  return { kind: 'field', field, alias, cast, aggregate };
}

/** `::type`, if there is one; type names are plain identifiers, never quoted SQL. */
function readCast(s: Scanner): string | undefined {
  if (!s.eat('::')) return undefined;
  const castStart = s.pos;
  while (!s.done && /[A-Za-z0-9_]/.test(s.peek())) s.pos++;
  const cast = s.text.slice(castStart, s.pos);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(cast)) s.fail('expected a type name');
  return cast;
}

export function parseSelect(text: string): SelectItem[] {
  if (text.trim() === '') return [{ kind: 'star' }];
  // Embeds nest by parentheses; each level is planned recursively, like a logic tree's.
  if (deepestNesting(text) > MAX_LOGIC_DEPTH) {
    throw parseError(
      `"failed to parse select parameter (${text.slice(0, 80)}…)"`,
      `embedded resources nest at most ${MAX_LOGIC_DEPTH} levels deep`,
    );
  }
  const s = new Scanner(text, 'select');
  const items = parseSelectList(s);
  if (!s.done) s.fail('expected "," or end of select');
  return items;
}

/** Splits at top-level commas, keeping parentheses and double-quoted strings intact. */
function splitTopLevel(text: string, what: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth < 0) throw parseError(`"failed to parse ${what} (${text})"`, 'unbalanced ")"');
    } else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted || depth !== 0)
    throw parseError(`"failed to parse ${what} (${text})"`, 'unbalanced quotes or parentheses');
  parts.push(text.slice(start));
  return parts;
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')) {
    return trimmed.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

function parseList(text: string, what: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) {
    throw parseError(`"failed to parse ${what} (${text})"`, 'expected a list like (a,b,c)');
  }
  const inner = text.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner, what).map(unquote);
}

/**
 * Parses the right-hand side of a filter, `[not.]op[(config)].value`; `inLogic` means the
 * value sits inside `or=(…)`, where values may be double-quoted.
 */
export function parseOperation(field: FieldPath, text: string, inLogic: boolean): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\(([A-Za-z0-9_]+)\))?\./.exec(rest);
  const op = match?.[1];
  if (!match || !op || !operatorSet.has(op)) {
    throw parseError(
      `"failed to parse filter (${text})" (line 1, column 1)`,
      `unknown or missing operator in "${text}"`,
    );
  }
  const config = match[2];
  if (config !== undefined && !textSearchOps.has(op)) {
    throw parseError(`"failed to parse filter (${text})"`, `${op} takes no modifier`);
  }
  const raw = rest.slice(match[0].length);
  const operator = op as Operator;
  if (operator === 'in') {
    return { kind: 'cond', field, negate, op: operator, value: parseList(raw, 'filter') };
  }
  const value = inLogic ? unquote(raw) : raw;
  if (operator === 'is' && !['null', 'not_null', 'true', 'false', 'unknown'].includes(value)) {
    throw parseError(
      `"failed to parse filter (${text})"`,
      'is accepts null, not_null, true, false or unknown',
    );
  }
  return { kind: 'cond', field, negate, op: operator, value, config };
}

export function parseFieldPath(text: string, what: string): FieldPath {
  const s = new Scanner(text, what);
  const field = readFieldPath(s);
  if (!s.done) s.fail('unexpected text after the column');
  return field;
}

/**
 * How deep `and`/`or` and embedded resources may nest. Each level is parsed, planned and
 * evaluated recursively (here and in PostgreSQL), so a tree thousands of levels deep would
 * exhaust a stack; real requests nest a handful of levels.
 */
export const MAX_LOGIC_DEPTH = 32;

function deepestNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === '(') deepest = Math.max(deepest, ++depth);
    else if (ch === ')') depth--;
  }
  return deepest;
}

/** `or=(a.eq.1,and(b.gt.2,c.is.null))` and `not.and=(…)`. */
export function parseLogicTree(op: 'and' | 'or', negate: boolean, text: string): LogicTree {
  if (deepestNesting(text) > MAX_LOGIC_DEPTH) {
    throw parseError(
      `"failed to parse logic tree (${text.slice(0, 80)}…)"`,
      `and/or nest at most ${MAX_LOGIC_DEPTH} levels deep`,
    );
  }
  return parseLogicLevel(op, negate, text);
}

function parseLogicLevel(op: 'and' | 'or', negate: boolean, text: string): LogicTree {
  const items = parseList(text.trim(), op).map((item) => item.trim());
  if (items.length === 0) {
    throw parseError(`"failed to parse logic tree (${text})"`, 'an empty logic tree');
  }
  const children = items.map((item): FilterNode => {
    const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(item);
    if (nested?.[2] && nested[3]) {
      return parseLogicLevel(nested[2] as 'and' | 'or', Boolean(nested[1]), nested[3]);
    }
    const s = new Scanner(item, 'logic tree');
    const field = readFieldPath(s);
    if (!s.eat('.')) s.fail('expected "." after the column');
    return parseOperation(field, item.slice(s.pos), true);
  });
  return { kind: 'logic', op, negate, children };
}

export function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text, 'order').map((term) => {
    const s = new Scanner(term.trim(), 'order');
    let field = readFieldPath(s);
    let relation: string | undefined;
    if (field.json.length === 0 && s.eat('(')) {
      relation = field.column;
      field = readFieldPath(s);
      s.expect(')');
    }
    const result: OrderTerm = relation === undefined ? { field } : { relation, field };
    while (s.eat('.')) {
      const word = readName(s, 'asc, desc, nullsfirst or nullslast');
      if (word === 'asc' || word === 'desc') result.direction = word;
      else if (word === 'nullsfirst') result.nulls = 'first';
      else if (word === 'nullslast') result.nulls = 'last';
      else s.fail(`unknown order modifier "${word}"`);
    }
    if (!s.done) s.fail('unexpected text in order term');
    return result;
  });
}

/** `columns="a","b"` or `columns=a,b`. */
export function parseColumns(text: string): string[] {
  return splitTopLevel(text, 'columns').map((name) => {
    const s = new Scanner(name.trim(), 'columns');
    const column = readName(s, 'a column name');
    if (!s.done) s.fail('unexpected text in columns');
    return column;
  });
}
