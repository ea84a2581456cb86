import { describe, expect, it } from 'vitest';
import { RestError } from './errors';
import {
  parseColumns,
  MAX_LOGIC_DEPTH,
  parseLogicTree,
  parseOperation,
  parseOrder,
  parseSelect,
} from './query-grammar';

const field = (column: string) => ({ column, json: [] });

function parseFailure(run: () => unknown): RestError {
  try {
    run();
  } catch (error) {
    if (error instanceof RestError) return error;
    throw error;
  }
  throw new Error('expected a parse error');
}

describe('select grammar', () => {
  it('reads columns, aliases, casts, JSON paths and embeds', () => {
    expect(
      parseSelect(
        'id,name:title,level::text,meta->a->>b,author:profiles!author_id(display_name),courses!inner(*)',
      ),
    ).toEqual([
      { kind: 'field', field: field('id'), alias: undefined, cast: undefined },
      { kind: 'field', field: field('title'), alias: 'name', cast: undefined },
      { kind: 'field', field: field('level'), alias: undefined, cast: 'text' },
      {
        kind: 'field',
        field: {
          column: 'meta',
          json: [
            { arrow: '->', key: 'a' },
            { arrow: '->>', key: 'b' },
          ],
        },
        alias: undefined,
        cast: undefined,
      },
      {
        kind: 'embed',
        relation: 'profiles',
        alias: 'author',
        hint: 'author_id',
        inner: false,
        spread: false,
        select: [
          { kind: 'field', field: field('display_name'), alias: undefined, cast: undefined },
        ],
      },
      {
        kind: 'embed',
        relation: 'courses',
        alias: undefined,
        hint: undefined,
        inner: true,
        spread: false,
        select: [{ kind: 'star' }],
      },
    ]);
  });

  it('reads nested embeds, join types and spreads', () => {
    expect(parseSelect('a(b!left(c!inner(id))),...d!fk(x)')).toEqual([
      {
        kind: 'embed',
        relation: 'a',
        alias: undefined,
        hint: undefined,
        inner: false,
        spread: false,
        select: [
          {
            kind: 'embed',
            relation: 'b',
            alias: undefined,
            hint: undefined,
            inner: false,
            spread: false,
            select: [
              {
                kind: 'embed',
                relation: 'c',
                alias: undefined,
                hint: undefined,
                inner: true,
                spread: false,
                select: [{ kind: 'field', field: field('id'), alias: undefined, cast: undefined }],
              },
            ],
          },
        ],
      },
      {
        kind: 'embed',
        relation: 'd',
        alias: undefined,
        hint: 'fk',
        inner: false,
        spread: true,
        select: [{ kind: 'field', field: field('x'), alias: undefined, cast: undefined }],
      },
    ]);
    const deepest = `${'a('.repeat(MAX_LOGIC_DEPTH)}id${')'.repeat(MAX_LOGIC_DEPTH)}`;
    expect(parseSelect(deepest)).toHaveLength(1);
  });

  it('reads aggregates with aliases and casts', () => {
    expect(parseSelect('n:count()::text,amount::int.sum()::text,year.max()')).toEqual([
      {
        kind: 'field',
        field: field('*'),
        alias: 'n',
        aggregate: { fn: 'count', cast: 'text' },
      },
      {
        kind: 'field',
        field: field('amount'),
        alias: undefined,
        cast: 'int',
        aggregate: { fn: 'sum', cast: 'text' },
      },
      {
        kind: 'field',
        field: field('year'),
        alias: undefined,
        cast: undefined,
        aggregate: { fn: 'max', cast: undefined },
      },
    ]);
    for (const text of ['year.median()', 'year.sum', 'year.sum()::int)x', 'count()::"int"']) {
      expect(parseFailure(() => parseSelect(text)).code, text).toBe('PGRST100');
    }
  });

  it('keeps quoted names whole', () => {
    expect(parseSelect('"odd, name"')).toEqual([
      { kind: 'field', field: field('odd, name'), alias: undefined, cast: undefined },
    ]);
  });

  it('leaves odd characters in a name to the schema-cache check', () => {
    // Not a parse error: the name is looked up in the schema cache and quoted, never spliced.
    expect(parseSelect('id;drop')).toEqual([
      { kind: 'field', field: field('id;drop'), alias: undefined, cast: undefined },
    ]);
  });

  it('refuses what would smuggle SQL or nest too deep', () => {
    for (const text of [
      'id::text);drop',
      'id,',
      '(',
      'id)',
      '"unterminated',
      '...spread',
      '...spread!inner',
      'rel!inner',
      `${'a('.repeat(MAX_LOGIC_DEPTH + 1)}id${')'.repeat(MAX_LOGIC_DEPTH + 1)}`,
    ]) {
      expect(parseFailure(() => parseSelect(text)).code, text).toBe('PGRST100');
    }
  });
});

describe('filter grammar', () => {
  it('reads operators, negation, lists and text-search configs', () => {
    expect(parseOperation(field('id'), 'not.in.(1,"a,b",3)', false)).toMatchObject({
      negate: true,
      op: 'in',
      value: ['1', 'a,b', '3'],
    });
    expect(parseOperation(field('doc'), 'fts(english).cat & dog', false)).toMatchObject({
      op: 'fts',
      config: 'english',
      value: 'cat & dog',
    });
    expect(parseOperation(field('t'), 'eq.a.b.c', false)).toMatchObject({
      op: 'eq',
      value: 'a.b.c',
    });
  });

  it('refuses unknown operators and bad is values', () => {
    expect(parseFailure(() => parseOperation(field('id'), 'zz.1', false)).code).toBe('PGRST100');
    expect(parseFailure(() => parseOperation(field('id'), 'is.maybe', false)).code).toBe(
      'PGRST100',
    );
    expect(parseFailure(() => parseOperation(field('id'), 'eq(any).1', false)).code).toBe(
      'PGRST100',
    );
  });

  it('reads nested logic trees with quoted values', () => {
    const tree = parseLogicTree('or', false, '(a.eq.1,and(b.gt.2,c.not.is.null),d.eq."x,y")');
    expect(tree).toMatchObject({
      op: 'or',
      children: [
        { kind: 'cond', field: field('a'), op: 'eq', value: '1' },
        {
          kind: 'logic',
          op: 'and',
          children: [
            { op: 'gt', value: '2' },
            { op: 'is', negate: true, value: 'null' },
          ],
        },
        { op: 'eq', value: 'x,y' },
      ],
    });
    expect(parseFailure(() => parseLogicTree('or', false, '(a.eq.1')).code).toBe('PGRST100');
  });

  it('refuses and/or nested deeper than the limit, without recursing into it', () => {
    const nest = (levels: number) =>
      `(${'and('.repeat(levels - 1)}a.eq.1${')'.repeat(levels - 1)})`;
    expect(parseLogicTree('or', false, nest(MAX_LOGIC_DEPTH)).kind).toBe('logic');
    const refusal = parseFailure(() => parseLogicTree('or', false, nest(MAX_LOGIC_DEPTH + 1)));
    expect(refusal.code).toBe('PGRST100');
    expect(refusal.details).toContain(`at most ${MAX_LOGIC_DEPTH} levels`);
    expect(parseFailure(() => parseLogicTree('or', false, nest(20_000))).code).toBe('PGRST100');
    // Parentheses inside a quoted value are text, not nesting.
    const quoted = `(a.eq."${'('.repeat(100)}")`;
    expect(parseLogicTree('or', false, quoted).children).toHaveLength(1);
  });
});

describe('order and columns', () => {
  it('reads related order terms', () => {
    expect(parseOrder('author(name).desc,id')).toEqual([
      { relation: 'author', field: field('name'), direction: 'desc' },
      { field: field('id') },
    ]);
  });

  it('reads directions and nulls placement', () => {
    expect(parseOrder('a.desc.nullslast,b,c.asc')).toEqual([
      { field: field('a'), direction: 'desc', nulls: 'last' },
      { field: field('b') },
      { field: field('c'), direction: 'asc' },
    ]);
    expect(parseFailure(() => parseOrder('a.sideways')).code).toBe('PGRST100');
    expect(parseFailure(() => parseOrder('a desc')).code).toBe('PGRST100');
  });

  it('reads quoted column lists', () => {
    expect(parseColumns('"a","b c",d')).toEqual(['a', 'b c', 'd']);
  });
});
