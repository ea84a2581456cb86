import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

/**
 * Embedding as PostgREST 12/13 does it: nested levels, join types, filters, order and paging on
 * every level, one-to-one, disambiguation, many-to-many, self-references, views and spreads.
 * Fixture tables carry an `re_` prefix so they never meet the product's own migrations.
 */
const fixture = `
create table public.re_authors (
  id int primary key,
  name text not null,
  mentor_id int references public.re_authors(id)
);
create table public.re_publishers (id int primary key, name text not null);
create table public.re_books (
  id int primary key,
  title text not null,
  year int not null,
  author_id int not null references public.re_authors(id),
  editor_id int references public.re_authors(id),
  publisher_id int references public.re_publishers(id)
);
create table public.re_chapters (
  id int primary key,
  book_id int not null references public.re_books(id),
  position int not null,
  title text not null
);
create table public.re_paragraphs (
  id int primary key,
  chapter_id int not null references public.re_chapters(id),
  words int not null
);
create table public.re_book_details (
  book_id int primary key references public.re_books(id),
  isbn text not null
);
create table public.re_tags (id int primary key, label text not null);
create table public.re_book_tags (
  book_id int references public.re_books(id),
  tag_id int references public.re_tags(id),
  primary key (book_id, tag_id)
);
create function public.re_label(public.re_books) returns text language sql stable
  as $$ select $1.title || ' (' || $1.year || ')' $$;
create function public.re_decade(b public.re_books) returns int language sql immutable
  as $$ select (b.year / 10) * 10 $$;
create function public.re_first_chapter(public.re_books) returns setof public.re_chapters
  rows 1 language sql stable as $$
    select * from public.re_chapters where book_id = $1.id order by position limit 1
  $$;
create function public.re_edited(public.re_authors) returns setof public.re_books
  language sql stable as $$ select * from public.re_books where editor_id = $1.id $$;
create view public.re_book_list as select id as book_id, title, author_id from public.re_books;
create view public.re_recent_books as select * from public.re_book_list where book_id > 1;
insert into public.re_authors values (1, 'Ada', null), (2, 'Grace', 1), (3, 'Hedy', 1), (4, 'Joan', 2);
insert into public.re_publishers values (1, 'North'), (2, 'South');
insert into public.re_books values
  (1, 'Engines', 1843, 1, 2, 1),
  (2, 'Compilers', 1952, 2, null, 2),
  (3, 'Cobol', 1959, 2, 1, 1),
  (4, 'Radio', 1942, 3, null, null);
insert into public.re_chapters values
  (1, 1, 1, 'Notes'), (2, 1, 2, 'Tables'), (3, 2, 1, 'Linking'), (4, 3, 1, 'Records'), (5, 3, 2, 'Reports');
insert into public.re_paragraphs values (1, 1, 100), (2, 1, 50), (3, 2, 70), (4, 3, 20), (5, 5, 10);
insert into public.re_book_details values (1, '111'), (3, '333');
insert into public.re_tags values (1, 'math'), (2, 'history'), (3, 'code');
insert into public.re_book_tags values (1, 1), (1, 2), (2, 3), (3, 3);
notify pgrst, 'reload schema';
`;

async function waitForRelation(server: TestServer, relation: string) {
  const response = await vi.waitFor(
    async () => {
      const answer = await fetch(`${server.url}/rest/v1/${relation}?limit=0`, {
        headers: { apikey: server.serviceRoleKey },
      });
      if (answer.status === 404) throw new Error('the schema cache has not reloaded yet');
      return answer;
    },
    { timeout: 25_000, interval: 50 },
  );
  expect(response.status).toBe(200);
}

describe.each(databaseKinds)('REST embedding on %s', (kind) => {
  let server: TestServer;
  let db: SupabaseClient;
  beforeAll(async () => {
    server = await startTestServer(kind, { REST_AGGREGATES_ENABLED: 'true' });
    await server.deps.db.exec(fixture);
    await waitForRelation(server, 're_recent_books');
    db = testClient(server, server.serviceRoleKey);
  });
  afterAll(() => server?.stop());

  /** The raw answer, for request shapes supabase-js does not build. */
  async function get(query: string) {
    const response = await fetch(`${server.url}/rest/v1/${query}`, {
      headers: { apikey: server.serviceRoleKey, authorization: `Bearer ${server.serviceRoleKey}` },
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  it('embeds three levels deep, with filters, order and paging on each level', async () => {
    const { data, error } = await db
      .from('re_authors')
      .select('name, books:re_books!author_id(title, re_chapters(position, re_paragraphs(words)))')
      .eq('id', 2)
      .order('year', { referencedTable: 'books', ascending: false })
      .order('position', { referencedTable: 'books.re_chapters', ascending: false })
      .order('words', { referencedTable: 'books.re_chapters.re_paragraphs' })
      .gte('books.re_chapters.position', 1)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({
      name: 'Grace',
      books: [
        {
          title: 'Cobol',
          re_chapters: [
            { position: 2, re_paragraphs: [{ words: 10 }] },
            { position: 1, re_paragraphs: [] },
          ],
        },
        { title: 'Compilers', re_chapters: [{ position: 1, re_paragraphs: [{ words: 20 }] }] },
      ],
    });

    const paged = await db
      .from('re_authors')
      .select('name, books:re_books!author_id(title, re_chapters(title))')
      .eq('id', 2)
      .order('year', { referencedTable: 'books' })
      .range(1, 1, { referencedTable: 'books' })
      .limit(1, { referencedTable: 'books.re_chapters' })
      .order('position', { referencedTable: 'books.re_chapters', ascending: false })
      .single();
    expect(paged.error).toBeNull();
    expect(paged.data).toEqual({
      name: 'Grace',
      books: [{ title: 'Cobol', re_chapters: [{ title: 'Reports' }] }],
    });

    const filtered = await db
      .from('re_books')
      .select('title, re_chapters(title, re_paragraphs(words))')
      .eq('id', 1)
      .gt('re_chapters.re_paragraphs.words', 60)
      .order('id', { referencedTable: 're_chapters' })
      .single();
    expect(filtered.data).toEqual({
      title: 'Engines',
      re_chapters: [
        { title: 'Notes', re_paragraphs: [{ words: 100 }] },
        { title: 'Tables', re_paragraphs: [{ words: 70 }] },
      ],
    });
  });

  it('keeps only parents with matching children with !inner, on any level', async () => {
    const { data, error } = await db
      .from('re_authors')
      .select('name, re_books!author_id!inner(title, re_chapters!inner(title))')
      .eq('re_books.re_chapters.title', 'Linking');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Grace', re_books: [{ title: 'Compilers', re_chapters: [{ title: 'Linking' }] }] },
    ]);

    const left = await db
      .from('re_books')
      .select('title, re_chapters!left(title)')
      .eq('re_chapters.title', 'Linking')
      .order('id');
    expect(left.data?.map((b) => b.re_chapters.length)).toEqual([0, 1, 0, 0]);

    const counted = await db
      .from('re_books')
      .select('id, re_chapters!inner(id)', { count: 'exact' })
      .gt('re_chapters.position', 1)
      .order('id');
    expect(counted.count).toBe(2);
    expect(counted.data?.map((b) => b.id)).toEqual([1, 3]);
  });

  it('filters through empty embeds and null filters without returning them', async () => {
    const { data, error } = await db
      .from('re_books')
      .select('title, author:re_authors!author_id!inner()')
      .eq('author.name', 'Grace')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([{ title: 'Compilers' }, { title: 'Cobol' }]);

    const withDetails = await get(
      're_books?select=id,re_book_details()&re_book_details=not.is.null&order=id',
    );
    expect(withDetails.body).toEqual([{ id: 1 }, { id: 3 }]);
    const withoutChapters = await get('re_books?select=id,re_chapters(id)&re_chapters=is.null');
    expect(withoutChapters.body).toEqual([{ id: 4, re_chapters: [] }]);
    const countedNull = await db
      .from('re_books')
      .select('id, re_chapters(id)', { count: 'exact', head: true })
      .not('re_chapters', 'is', null);
    expect(countedNull.count).toBe(3);
  });

  it('returns one-to-one relations as objects, from either side', async () => {
    const { data } = await db
      .from('re_books')
      .select('id, re_book_details(isbn)')
      .in('id', [1, 2])
      .order('id');
    expect(data).toEqual([
      { id: 1, re_book_details: { isbn: '111' } },
      { id: 2, re_book_details: null },
    ]);
    const back = await db.from('re_book_details').select('isbn, re_books(title)').eq('book_id', 3);
    expect(back.data).toEqual([{ isbn: '333', re_books: { title: 'Cobol' } }]);
  });

  it('orders by a column of a to-one embed, and refuses to-many or unknown ones', async () => {
    const { data, error } = await db
      .from('re_books')
      .select('title, author:re_authors!author_id(name)')
      .order('author(name)', { ascending: false })
      .order('id');
    expect(error).toBeNull();
    expect(data?.map((b) => b.title)).toEqual(['Radio', 'Compilers', 'Cobol', 'Engines']);

    const toMany = await db
      .from('re_books')
      .select('title, re_chapters(title)')
      .order('re_chapters(title)');
    expect(toMany.status).toBe(400);
    expect(toMany.error).toMatchObject({
      code: 'PGRST118',
      message: "A related order on 're_chapters' is not possible",
      details: "'re_books' and 're_chapters' do not form a many-to-one or one-to-one relationship",
    });

    const missing = await db.from('re_books').select('title').order('re_authors(name)');
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe('PGRST108');

    const notEmbedded = await db.from('re_books').select('title').eq('re_chapters.position', 1);
    expect(notEmbedded.status).toBe(400);
    expect(notEmbedded.error).toMatchObject({
      code: 'PGRST108',
      message: "'re_chapters' is not an embedded resource in this request",
    });
  });

  it('picks a relationship by key name or column, and explains ambiguity as PostgREST does', async () => {
    const ambiguous = await db.from('re_books').select('title, re_authors(name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toEqual({
      code: 'PGRST201',
      message:
        "Could not embed because more than one relationship was found for 're_books' and 're_authors'",
      details: [
        {
          cardinality: 'many-to-one',
          embedding: 're_books with re_authors',
          relationship: 're_books_author_id_fkey using re_books(author_id) and re_authors(id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 're_books with re_authors',
          relationship: 're_books_editor_id_fkey using re_books(editor_id) and re_authors(id)',
        },
      ],
      hint: "Try changing 're_authors' to one of the following: 're_authors!re_books_author_id_fkey', 're_authors!re_books_editor_id_fkey'. Find the desired relationship in the 'details' key.",
    });

    const { data, error } = await db
      .from('re_books')
      .select(
        'title, author:re_authors!author_id(name), editor:re_authors!re_books_editor_id_fkey(name)',
      )
      .eq('id', 3)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ title: 'Cobol', author: { name: 'Grace' }, editor: { name: 'Ada' } });

    const edited = await db
      .from('re_authors')
      .select('name, edited:re_books!editor_id(title)')
      .eq('id', 1)
      .single();
    expect(edited.data).toEqual({ name: 'Ada', edited: [{ title: 'Cobol' }] });
  });

  it('answers PGRST200 with details and a suggestion when no relationship fits', async () => {
    const typo = await get('re_publishers?select=name,re_bookz(title)');
    expect(typo.status).toBe(400);
    expect(typo.body).toEqual({
      code: 'PGRST200',
      message:
        "Could not find a relationship between 're_publishers' and 're_bookz' in the schema cache",
      details:
        "Searched for a foreign key relationship between 're_publishers' and 're_bookz' in the schema 'public', but no matches were found.",
      hint: "Perhaps you meant 're_books' instead of 're_bookz'.",
    });
    const badHint = await get('re_books?select=title,re_authors!nope(name)');
    expect(badHint.status).toBe(400);
    expect(badHint.body).toEqual({
      code: 'PGRST200',
      message:
        "Could not find a relationship between 're_books' and 're_authors' in the schema cache",
      details:
        "Searched for a foreign key relationship between 're_books' and 're_authors' using the hint 'nope' in the schema 'public', but no matches were found.",
      hint: null,
    });
    const unrelated = await db.from('re_tags').select('label, re_publishers(name)');
    expect(unrelated.status).toBe(400);
    expect(unrelated.error?.code).toBe('PGRST200');
  });

  it('embeds many-to-many through a join table, both ways', async () => {
    const { data, error } = await db
      .from('re_books')
      .select('title, re_tags(label)')
      .order('id')
      .order('label', { referencedTable: 're_tags' });
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Engines', re_tags: [{ label: 'history' }, { label: 'math' }] },
      { title: 'Compilers', re_tags: [{ label: 'code' }] },
      { title: 'Cobol', re_tags: [{ label: 'code' }] },
      { title: 'Radio', re_tags: [] },
    ]);
    const back = await db
      .from('re_tags')
      .select('label, re_books!re_book_tags!inner(title)')
      .eq('re_books.year', 1952);
    expect(back.data).toEqual([{ label: 'code', re_books: [{ title: 'Compilers' }] }]);
    const junction = await db.from('re_books').select('id, re_book_tags(tag_id)').eq('id', 2);
    expect(junction.data).toEqual([{ id: 2, re_book_tags: [{ tag_id: 3 }] }]);
  });

  it('follows a self-reference both ways', async () => {
    const { data, error } = await db
      .from('re_authors')
      .select('name, mentor:mentor_id(name), mentees:re_authors!mentor_id(name)')
      .eq('id', 2)
      .single();
    expect(error).toBeNull();
    expect(data).toEqual({ name: 'Grace', mentor: { name: 'Ada' }, mentees: [{ name: 'Joan' }] });
    const children = await db
      .from('re_authors')
      .select('name, re_authors(name)')
      .eq('id', 1)
      .order('id', { referencedTable: 're_authors' })
      .single();
    expect(children.data).toEqual({
      name: 'Ada',
      re_authors: [{ name: 'Grace' }, { name: 'Hedy' }],
    });
  });

  it("embeds through views, with the keys of the view's base table", async () => {
    const { data, error } = await db
      .from('re_book_list')
      .select('title, re_authors(name), re_chapters(title)')
      .eq('book_id', 2);
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Compilers', re_authors: { name: 'Grace' }, re_chapters: [{ title: 'Linking' }] },
    ]);
    const viewOfView = await db
      .from('re_recent_books')
      .select('title, re_authors(name)')
      .order('book_id')
      .limit(1);
    expect(viewOfView.data).toEqual([{ title: 'Compilers', re_authors: { name: 'Grace' } }]);
    const toView = await db
      .from('re_authors')
      .select('name, re_book_list(title)')
      .eq('id', 3)
      .single();
    expect(toView.data).toEqual({ name: 'Hedy', re_book_list: [{ title: 'Radio' }] });
  });

  it('spreads to-one embeds into the parent, and to-many ones as arrays', async () => {
    const { data, error } = await db
      .from('re_books')
      .select('title, ...re_authors!author_id(author:name, ...mentor_id(mentor:name))')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Engines', author: 'Ada', mentor: null },
      { title: 'Compilers', author: 'Grace', mentor: 'Ada' },
      { title: 'Cobol', author: 'Grace', mentor: 'Ada' },
      { title: 'Radio', author: 'Hedy', mentor: 'Ada' },
    ]);
    const many = await db
      .from('re_books')
      .select('title, ...re_chapters(chapters:title, position)')
      .in('id', [1, 4])
      .order('id')
      .order('position', { referencedTable: 're_chapters', ascending: false });
    expect(many.error).toBeNull();
    expect(many.data).toEqual([
      { title: 'Engines', chapters: ['Tables', 'Notes'], position: [2, 1] },
      { title: 'Radio', chapters: [], position: [] },
    ]);
    const ordered = await db
      .from('re_books')
      .select('title, ...re_authors!author_id(name)')
      .order('re_authors(name)')
      .order('id');
    expect(ordered.data?.map((b) => b.title)).toEqual(['Engines', 'Compilers', 'Cobol', 'Radio']);
  });

  it('aggregates with aliases and casts, grouped by the other selected columns', async () => {
    const all = await db.from('re_books').select('count()').gt('year', 1900);
    expect(all.error).toBeNull();
    expect(all.data).toEqual([{ count: 3 }]);

    const { data, error } = await db
      .from('re_books')
      .select('author_id, count(), total:year.sum(), year.avg()::int, first:year.min(), year.max()')
      .order('author_id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { author_id: 1, count: 1, total: 1843, avg: 1843, first: 1843, max: 1843 },
      { author_id: 2, count: 2, total: 3911, avg: 1956, first: 1952, max: 1959 },
      { author_id: 3, count: 1, total: 1942, avg: 1942, first: 1942, max: 1942 },
    ]);

    const cast = await db.from('re_paragraphs').select('words:words::bigint.sum()::text');
    expect(cast.data).toEqual([{ words: '250' }]);
  });

  it('aggregates inside embeds, and groups by embedded resources', async () => {
    const { data, error } = await db
      .from('re_authors')
      .select('name, re_books!author_id(count(), latest:year.max())')
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: 'Ada', re_books: [{ count: 1, latest: 1843 }] },
      { name: 'Grace', re_books: [{ count: 2, latest: 1959 }] },
      { name: 'Hedy', re_books: [{ count: 1, latest: 1942 }] },
      { name: 'Joan', re_books: [{ count: 0, latest: null }] },
    ]);

    const byBook = await db.from('re_chapters').select('chapters:count(), re_books(title)');
    expect(byBook.error).toBeNull();
    // Groups come in no set order: compare them sorted by their JSON text.
    const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect([...(byBook.data ?? [])].sort(byText)).toEqual([
      { chapters: 1, re_books: { title: 'Compilers' } },
      { chapters: 2, re_books: { title: 'Cobol' } },
      { chapters: 2, re_books: { title: 'Engines' } },
    ]);
  });

  it("applies a to-one spread's aggregates in the parent, grouped by the parent's columns", async () => {
    const { data, error } = await db
      .from('re_chapters')
      .select('position, ...re_books(total:year.sum(), count())')
      .order('position');
    expect(error).toBeNull();
    expect(data).toEqual([
      { position: 1, total: 5754, count: 3 },
      { position: 2, total: 3802, count: 2 },
    ]);
  });

  it('hoists aggregates of a spread inside spreads to the first level that is not a to-one spread', async () => {
    // Each paragraph's chapter's book: max year and rows per chapter position.
    const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    const twoDeep = await db
      .from('re_paragraphs')
      .select('...re_chapters(position, ...re_books(latest:year.max(), count()))');
    expect(twoDeep.error).toBeNull();
    expect([...(twoDeep.data ?? [])].sort(byText)).toEqual([
      { position: 1, latest: 1952, count: 3 },
      { position: 2, latest: 1959, count: 2 },
    ]);
    // Three spreads deep, grouped by the innermost one's column.
    const threeDeep = await db
      .from('re_paragraphs')
      .select('...re_chapters(...re_books(...re_authors!author_id(name, paragraphs:count())))');
    expect(threeDeep.error).toBeNull();
    expect([...(threeDeep.data ?? [])].sort(byText)).toEqual([
      { name: 'Ada', paragraphs: 3 },
      { name: 'Grace', paragraphs: 2 },
    ]);
    // Hoisting stops at an embed that is not spread: the sum is per chapter there.
    const inEmbed = await db
      .from('re_books')
      .select('title, re_chapters(position, ...re_books(years:year.sum()))')
      .eq('id', 1)
      .order('position', { referencedTable: 're_chapters' })
      .single();
    expect(inEmbed.error).toBeNull();
    expect(inEmbed.data).toEqual({
      title: 'Engines',
      re_chapters: [
        { position: 1, years: 1843 },
        { position: 2, years: 1843 },
      ],
    });
  });

  it('refuses unknown aggregates and aggregates in to-many spreads as PostgREST does', async () => {
    const unknown = await get('re_books?select=year.median()');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'PGRST100' });
    const spread = await get('re_books?select=title,...re_chapters(count())');
    expect(spread.status).toBe(400);
    expect(spread.body).toEqual({
      code: 'PGRST127',
      message: 'Feature not implemented',
      details: 'Aggregates are not implemented for one-to-many or many-to-many spreads.',
      hint: null,
    });
    // Also when the aggregate comes up from a to-one spread inside the to-many one.
    const nested = await get(
      're_authors?select=name,...re_books!author_id(...re_publishers(count()))',
    );
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual(spread.body);
  });

  it('reads computed fields in select, filters and order, on any level', async () => {
    const { data, error } = await db
      .from('re_books')
      .select('title, label:re_label, re_decade')
      .gte('re_decade', 1950)
      .order('re_label', { ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Compilers', label: 'Compilers (1952)', re_decade: 1950 },
      { title: 'Cobol', label: 'Cobol (1959)', re_decade: 1950 },
    ]);
    const embedded = await db
      .from('re_authors')
      .select('name, re_books!author_id(re_label)')
      .eq('id', 3)
      .single();
    expect(embedded.data).toEqual({ name: 'Hedy', re_books: [{ re_label: 'Radio (1942)' }] });
    const written = await db
      .from('re_publishers')
      .update({ name: 'East' })
      .eq('id', 2)
      .select('name, re_books(re_decade)');
    expect(written.error).toBeNull();
    expect(written.data).toEqual([{ name: 'East', re_books: [{ re_decade: 1950 }] }]);
  });

  it('embeds computed relationships: functions of the row returning rows', async () => {
    const { data, error } = await db
      .from('re_books')
      .select('title, first:re_first_chapter(title)')
      .in('id', [1, 4])
      .order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: 'Engines', first: { title: 'Notes' } },
      { title: 'Radio', first: null },
    ]);
    const edited = await db
      .from('re_authors')
      .select('name, re_edited!inner(title, re_chapters(position))')
      .gt('re_edited.year', 1900)
      .order('position', { referencedTable: 're_edited.re_chapters' });
    expect(edited.error).toBeNull();
    expect(edited.data).toEqual([
      {
        name: 'Ada',
        re_edited: [{ title: 'Cobol', re_chapters: [{ position: 1 }, { position: 2 }] }],
      },
    ]);
  });

  it('answers a select nested too deep with a 400, and still serves the next request', async () => {
    const nest = (levels: number) =>
      `${'re_books!author_id(re_authors!author_id('.repeat(levels)}id${'))'.repeat(levels)}`;
    const fine = await db
      .from('re_authors')
      .select(`id, ${nest(3)}`)
      .eq('id', 4);
    expect(fine.error).toBeNull();
    const deep = await db.from('re_authors').select(`id, ${nest(200)}`);
    expect(deep.status).toBe(400);
    expect(deep.error?.code).toBe('PGRST100');
    expect(deep.error?.details).toMatch(/at most \d+ levels/);
    const after = await db.from('re_authors').select('id').eq('id', 1);
    expect(after.data).toEqual([{ id: 1 }]);
  });
});
