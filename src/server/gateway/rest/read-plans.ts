/**
 * Reads already built, per schema snapshot (decision 0029). The SQL and parameters of a
 * relation read depend only on the snapshot, the relation, the query string, the `Range`
 * headers, the count method and the body format, never on the caller (the role and claims
 * are bound by `queryAsRole`, and row-level security applies when the statement runs). A
 * client repeating a query, as every list a page polls does, skips parsing and building it.
 * A schema reload makes a new snapshot, whose plans start empty; errors are never kept.
 */
import type { ReadRequest, Source } from './read-query';
import type { SchemaSnapshot } from './schema-cache';

export interface ReadPlan {
  sql: string;
  /** Bound in order; shared by every request of this shape, so never changed. */
  values: readonly unknown[];
  source: Source;
  read: ReadRequest;
}

export interface ReadPlans {
  /** The plan kept under `key` for `snapshot`, or the one `build` makes (kept if it fits). */
  get(snapshot: SchemaSnapshot, key: string, build: () => ReadPlan): ReadPlan;
}

/** Entries per snapshot: as many as the statements `queryAsRole` keeps prepared and more. */
const MAX_ENTRIES = 1000;
/** Longer keys (huge `or=` lists) are built every time rather than held. */
const MAX_KEY_LENGTH = 4096;

export function createReadPlans(
  limits: { maxEntries?: number; maxKeyLength?: number } = {},
): ReadPlans {
  const maxEntries = limits.maxEntries ?? MAX_ENTRIES;
  const maxKeyLength = limits.maxKeyLength ?? MAX_KEY_LENGTH;
  const bySnapshot = new WeakMap<SchemaSnapshot, Map<string, ReadPlan>>();
  return {
    get(snapshot, key, build) {
      let plans = bySnapshot.get(snapshot);
      const kept = plans?.get(key);
      if (kept) return kept;
      const plan = build();
      if (key.length > maxKeyLength) return plan;
      if (!plans) {
        plans = new Map();
        bySnapshot.set(snapshot, plans);
      }
      // Map keeps insertion order: the first key is the oldest plan.
      if (plans.size >= maxEntries) plans.delete(plans.keys().next().value!);
      plans.set(key, plan);
      return plan;
    },
  };
}

/**
 * The parts of a read request its plan depends on besides the snapshot, as one key. Only the
 * relation (a decoded path segment) can hold a line break, so it goes last: no two requests
 * share a key.
 */
export function readPlanKey(parts: {
  relation: string;
  url: string;
  range: string | undefined;
  rangeUnit: string | undefined;
  countMethod: string | undefined;
  format: string;
}): string {
  const query = parts.url.indexOf('?');
  return [
    parts.countMethod ?? '',
    parts.format,
    parts.range ?? '',
    parts.rangeUnit ?? '',
    query === -1 ? '' : parts.url.slice(query + 1),
    parts.relation,
  ].join('\n');
}
