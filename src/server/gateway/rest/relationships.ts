/**
 * The relationships embedding can follow, found from the catalog the way PostgREST finds them
 * (its docs, "Resource Embedding"): each foreign key gives a many-to-one (one-to-one when its
 * columns are also unique) and the inverse; views that expose a key's columns inherit it; a
 * table whose primary key holds foreign keys to two relations joins them many-to-many. Then
 * `findRelationship` picks the one a `select` names, with PostgREST's hints and errors.
 */
import { ambiguousRelationship, noRelationship, type RelationshipCandidate } from './errors';

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one' | 'many-to-many';

/** Column pairs: (a column of one side, the column of the other side it matches). */
export type ColumnPairs = readonly (readonly [string, string])[];

export interface Junction {
  table: string;
  /** The junction's key to the origin, and its key to the embedded relation. */
  constraint1: string;
  constraint2: string;
  /** (origin column, junction column) */
  sourceColumns: ColumnPairs;
  /** (embedded relation's column, junction column) */
  targetColumns: ColumnPairs;
}

export interface Relationship {
  /** The relation embedding starts from. */
  table: string;
  /** The relation embedded. */
  foreignTable: string;
  cardinality: Cardinality;
  /** The foreign key's name; for many-to-many, the junction's key to the embedded relation. */
  constraint: string;
  /** (origin column, embedded column); empty for many-to-many, see `junction`. */
  columns: ColumnPairs;
  junction?: Junction;
  isSelf: boolean;
  foreignIsView: boolean;
  /** A one-to-one from the referenced side (the key's inverse). */
  parentSide: boolean;
  /** A computed relationship: this function, called on the origin's row, gives the rows. */
  function?: string;
}

/** A function taking one relation's row and returning another's rows (or one of them). */
export interface ComputedInput {
  name: string;
  from: string;
  to: string;
  single: boolean;
}

export interface KeyInput {
  name: string;
  fromRelation: string;
  fromColumns: string[];
  toRelation: string;
  toColumns: string[];
}

export interface RelationInput {
  name: string;
  kind: 'table' | 'view';
  primaryKey: string[];
  /** Column sets of the primary key and unique constraints. */
  uniqueKeys: string[][];
}

/** A view column that shows a base table's column unchanged. */
export interface ViewColumnSource {
  view: string;
  column: string;
  table: string;
  tableColumn: string;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * Every way to name `columns` of `table` through `view`, as lists of view columns (a view that
 * shows one column twice gives two ways).
 */
function viewColumnChoices(
  sources: readonly ViewColumnSource[],
  table: string,
  columns: readonly string[],
): string[][] {
  let choices: string[][] = [[]];
  for (const column of columns) {
    const named = sources
      .filter((s) => s.table === table && s.tableColumn === column)
      .map((s) => s.column);
    if (named.length === 0) return [];
    choices = choices.flatMap((choice) => named.map((name) => [...choice, name]));
  }
  return choices;
}

export function discoverRelationships(
  relations: ReadonlyMap<string, RelationInput>,
  keys: readonly KeyInput[],
  viewSources: readonly ViewColumnSource[],
  computed: readonly ComputedInput[] = [],
): Map<string, Relationship[]> {
  const isView = (name: string) => relations.get(name)?.kind === 'view';
  const direct: Relationship[] = keys
    .filter((key) => relations.has(key.fromRelation) && relations.has(key.toRelation))
    .map((key) => {
      const unique = (relations.get(key.fromRelation)?.uniqueKeys ?? []).some((cols) =>
        sameSet(cols, key.fromColumns),
      );
      return {
        table: key.fromRelation,
        foreignTable: key.toRelation,
        cardinality: unique ? 'one-to-one' : 'many-to-one',
        constraint: key.name,
        columns: key.fromColumns.map((c, i) => [c, key.toColumns[i] ?? ''] as const),
        isSelf: key.fromRelation === key.toRelation,
        foreignIsView: false,
        parentSide: false,
      };
    });

  const byView = new Map<string, ViewColumnSource[]>();
  for (const source of viewSources) {
    byView.set(source.view, [...(byView.get(source.view) ?? []), source]);
  }
  const throughViews: Relationship[] = [];
  for (const rel of direct) {
    const origins = rel.columns.map(([c]) => c);
    const targets = rel.columns.map(([, c]) => c);
    const fromViews: [string, string[]][] = [];
    const toViews: [string, string[]][] = [];
    for (const [view, sources] of byView) {
      for (const choice of viewColumnChoices(sources, rel.table, origins))
        fromViews.push([view, choice]);
      for (const choice of viewColumnChoices(sources, rel.foreignTable, targets))
        toViews.push([view, choice]);
    }
    const derive = (table: string, from: string[], foreign: string, to: string[]) =>
      throughViews.push({
        ...rel,
        table,
        foreignTable: foreign,
        columns: from.map((c, i) => [c, to[i] ?? ''] as const),
        isSelf: table === foreign,
        foreignIsView: isView(foreign),
      });
    for (const [view, cols] of fromViews) derive(view, cols, rel.foreignTable, targets);
    for (const [view, cols] of toViews) derive(rel.table, origins, view, cols);
    for (const [view1, cols1] of fromViews) {
      for (const [view2, cols2] of toViews) derive(view1, cols1, view2, cols2);
    }
  }

  const manyToOne = [...direct, ...throughViews];
  const manyToMany: Relationship[] = [];
  for (const first of manyToOne) {
    if (first.cardinality !== 'many-to-one') continue;
    const junction = relations.get(first.table);
    if (!junction || junction.kind !== 'table') continue;
    for (const second of manyToOne) {
      if (
        second.table !== first.table ||
        second.cardinality !== 'many-to-one' ||
        second.constraint === first.constraint
      )
        continue;
      const junctionColumns = [...first.columns, ...second.columns].map(([c]) => c);
      if (!junctionColumns.every((c) => junction.primaryKey.includes(c))) continue;
      manyToMany.push({
        table: first.foreignTable,
        foreignTable: second.foreignTable,
        cardinality: 'many-to-many',
        constraint: second.constraint,
        columns: [],
        junction: {
          table: junction.name,
          constraint1: first.constraint,
          constraint2: second.constraint,
          sourceColumns: first.columns.map(([j, o]) => [o, j] as const),
          targetColumns: second.columns.map(([j, f]) => [f, j] as const),
        },
        isSelf: first.foreignTable === second.foreignTable,
        foreignIsView: isView(second.foreignTable),
        parentSide: false,
      });
    }
  }

  const inverse: Relationship[] = manyToOne.map((rel) => ({
    ...rel,
    table: rel.foreignTable,
    foreignTable: rel.table,
    cardinality: rel.cardinality === 'one-to-one' ? 'one-to-one' : 'one-to-many',
    columns: rel.columns.map(([a, b]) => [b, a] as const),
    foreignIsView: isView(rel.table),
    parentSide: rel.cardinality === 'one-to-one',
  }));

  const functions: Relationship[] = computed
    .filter((fn) => relations.has(fn.from) && relations.has(fn.to))
    .map((fn) => ({
      table: fn.from,
      foreignTable: fn.to,
      cardinality: fn.single ? 'many-to-one' : 'one-to-many',
      constraint: fn.name,
      columns: [],
      isSelf: fn.from === fn.to,
      foreignIsView: isView(fn.to),
      parentSide: false,
      function: fn.name,
    }));

  const byOrigin = new Map<string, Relationship[]>();
  for (const rel of [...manyToOne, ...manyToMany, ...inverse, ...functions]) {
    byOrigin.set(rel.table, [...(byOrigin.get(rel.table) ?? []), rel]);
  }
  return byOrigin;
}

/** Embedded rows per parent row: at most one, or any number. */
export function isToOne(rel: Relationship): boolean {
  return rel.cardinality === 'many-to-one' || rel.cardinality === 'one-to-one';
}

const singleColumn = (pairs: ColumnPairs, side: 0 | 1): string | undefined =>
  pairs.length === 1 ? pairs[0]?.[side] : undefined;

/**
 * The relationship `origin?select=target!hint(…)` names, as PostgREST's resolution has it:
 * `target` is the embedded relation (or, without a hint, a foreign key's name or column); the
 * hint is a key name, a key column of either side, or a many-to-many junction. In a
 * self-reference the table's name means its children and a key column its parent.
 */
export function findRelationship(
  all: ReadonlyMap<string, readonly Relationship[]>,
  origin: string,
  target: string,
  hint: string | undefined,
  schema: string,
): Relationship {
  const own = all.get(origin) ?? [];
  const matches = own.filter((rel) => {
    // A computed relationship is named by its function, whatever the hint.
    if (rel.function !== undefined) return rel.function === target;
    const keyed = rel.cardinality !== 'many-to-many' && rel.columns.length > 0;
    const constraintIs = (name: string) => keyed && rel.constraint === name;
    const originColumnIs = (name: string) => keyed && singleColumn(rel.columns, 0) === name;
    const foreignColumnIs = (name: string) => keyed && singleColumn(rel.columns, 1) === name;
    if (rel.isSelf) {
      if (hint === undefined) {
        return (
          (rel.foreignTable === target && rel.cardinality === 'one-to-many') ||
          (rel.cardinality === 'many-to-one' && originColumnIs(target))
        );
      }
      return (
        rel.foreignTable === target && rel.cardinality === 'one-to-many' && foreignColumnIs(hint)
      );
    }
    if (hint === undefined) {
      return (
        rel.foreignTable === target ||
        (!rel.foreignIsView && (constraintIs(target) || originColumnIs(target)))
      );
    }
    return (
      rel.foreignTable === target &&
      (constraintIs(hint) ||
        originColumnIs(hint) ||
        foreignColumnIs(hint) ||
        rel.junction?.table === hint)
    );
  });
  const [only] = matches;
  if (only && matches.length === 1) return only;
  if (matches.length === 0) {
    throw noRelationship(origin, target, hint, suggestion(all, origin, target), schema);
  }
  throw ambiguousRelationship(origin, target, matches.map(describe));
}

function describe(rel: Relationship): RelationshipCandidate {
  const list = (cols: readonly string[]) => `(${cols.join(', ')})`;
  const embedding = `${rel.table} with ${rel.foreignTable}`;
  if (rel.junction) {
    const j = rel.junction;
    return {
      hint: `${rel.foreignTable}!${j.table}`,
      cardinality: 'many-to-many',
      embedding,
      relationship: `${j.table} using ${j.constraint1}${list(j.sourceColumns.map(([, c]) => c))} and ${j.constraint2}${list(j.targetColumns.map(([, c]) => c))}`,
    };
  }
  return {
    hint: `${rel.foreignTable}!${rel.constraint}`,
    cardinality: rel.cardinality,
    embedding,
    relationship: `${rel.constraint} using ${rel.table}${list(rel.columns.map(([c]) => c))} and ${rel.foreignTable}${list(rel.columns.map(([, c]) => c))}`,
  };
}

/** Character n-grams of a name padded with "-", as fuzzy name matchers count them. */
function grams(text: string, size: number): Map<string, number> {
  const padded = `-${text.toLowerCase()}-`;
  const counts = new Map<string, number>();
  for (let i = 0; i + size <= padded.length; i++) {
    const gram = padded.slice(i, i + size);
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return counts;
}

function similarity(a: string, b: string): number {
  let best = 0;
  for (const size of [2, 3]) {
    const ga = grams(a, size);
    const gb = grams(b, size);
    let dot = 0;
    for (const [gram, n] of ga) dot += n * (gb.get(gram) ?? 0);
    const norm = (g: Map<string, number>) =>
      Math.sqrt([...g.values()].reduce((s, n) => s + n * n, 0));
    const denominator = norm(ga) * norm(gb);
    if (denominator > 0) best = Math.max(best, dot / denominator);
  }
  return best;
}

/** The closest name, if any comes near (PostgREST suggests one the same way). */
function closest(names: Iterable<string>, wanted: string): string | undefined {
  let best: { name: string; score: number } | undefined;
  for (const name of new Set(names)) {
    const score = similarity(name, wanted);
    if (score >= 0.33 && score < 1 && (!best || score > best.score)) best = { name, score };
  }
  return best?.name;
}

function suggestion(
  all: ReadonlyMap<string, readonly Relationship[]>,
  origin: string,
  target: string,
): string | null {
  const own = all.get(origin);
  if (own) {
    if (own.some((rel) => rel.foreignTable === target)) return null;
    const child = closest(
      own.map((rel) => rel.foreignTable),
      target,
    );
    return child ? `Perhaps you meant '${child}' instead of '${target}'.` : null;
  }
  const parent = closest(all.keys(), origin);
  return parent ? `Perhaps you meant '${parent}' instead of '${origin}'.` : null;
}
