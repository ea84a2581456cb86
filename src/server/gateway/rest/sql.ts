/** The only ways user-influenced text reaches SQL: quoted checked identifiers and bound values. */

/** Quotes an identifier that has already been checked against the schema cache. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"schema"."relation"`: the request's schema names where everything it reads or calls is. */
export function qualified(relation: string, schema: string): string {
  return `${ident(schema)}.${ident(relation)}`;
}

/** Collects bound parameters and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
