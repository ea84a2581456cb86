/**
 * General Knowledge mode, offline (decisions 0211, 0221): PostgreSQL full-text search over the
 * material of the courses the learner studies or teaches — Markdown lessons, bank questions'
 * teaching material (prompt, worked example, prerequisite refresher; never their answers), and
 * the text extracted from the courses' PDF and ePub files — and over the learner's own files
 * in `kb_files`, and a short answer from the best passage, citing where it came from. When
 * nothing matches well enough it says plainly that it does not know.
 */
import type { Queryable } from '../db/types';

export interface KnowledgeSource {
  kind: 'lesson' | 'question' | 'file' | 'own_file';
  /** The lesson, question or file the passage is from. */
  id: string;
  title: string;
  /** The course's title; null for the learner's own files. */
  course: string | null;
  /** Where the learner can read more, in the app; null for their own files. */
  href: string | null;
}

export interface KnowledgeHit extends KnowledgeSource {
  passage: string;
  /** Share of the question's search terms the passage's document holds (0–1). */
  coverage: number;
}

/** Below this share of the question's terms, a document is not an answer. */
const MIN_COVERAGE = 0.5;

/** Markdown reduced to plain sentences for a passage (links keep their words). */
function plain(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#+\s*/gm, '')
    .replace(/[*_`>|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The best passages for `question` in the user's courses (one course when `courseId` is
 * given), best first.
 */
export async function searchKnowledge(
  db: Queryable,
  userId: string,
  question: string,
  courseId: string | null,
  limit = 3,
): Promise<KnowledgeHit[]> {
  const { rows } = await db.query<{
    kind: KnowledgeSource['kind'];
    id: string;
    course_id: string | null;
    title: string;
    course: string | null;
    text: string;
    coverage: number;
  }>(
    `with terms as (
       select array_agg(distinct lexeme) as lexemes
         from unnest(tsvector_to_array(to_tsvector('english', $2))) as lexeme
     ),
     q as (
       select lexemes, to_tsquery('english', array_to_string(lexemes, ' | ')) as query
         from terms where lexemes is not null
     ),
     readable as (
       select learning.courses_enrolled($1) as id
       union
       select learning.courses_taught($1)
     ),
     hits as (
       select 'lesson'::text as kind, l.id, l.course_id, l.title, l.body as text,
              learning.lesson_search_text(l.title, l.body) as doc
         from public.lessons l, q
        where l.kind = 'markdown'
          and learning.lesson_search_text(l.title, l.body) @@ q.query
          and l.course_id in (select id from readable)
          and ($3::uuid is null or l.course_id = $3)
       union all
       select 'question', qq.id, qq.course_id, qq.prerequisite ->> 'concept',
              qq.prompt || E'\n\n' || (qq.prerequisite ->> 'refresher') || E'\n\n' || qq.worked_example,
              learning.question_search_text(qq.prompt, qq.worked_example, qq.prerequisite)
         from public.questions qq, q
        where learning.question_search_text(qq.prompt, qq.worked_example, qq.prerequisite) @@ q.query
          and qq.course_id in (select id from readable)
          and ($3::uuid is null or qq.course_id = $3)
       union all
       -- A course file's page, cited as the lesson that shows the file.
       select 'file', l.id, p.course_id,
              l.title || case when d.kind = 'pdf' then ', page ' || p.position
                              when p.label <> '' then ': ' || p.label else '' end,
              p.body, p.search
         from public.course_document_pages p
         join public.course_documents d on d.object_id = p.object_id
         join lateral (select ll.id, ll.title from public.lessons ll
                        where ll.course_id = d.course_id and ll.file_path = d.file_path
                        order by ll.position limit 1) l on true, q
        where p.search @@ q.query
          and p.course_id in (select id from readable)
          and ($3::uuid is null or p.course_id = $3)
       union all
       -- The learner's own files, whatever the session's course.
       select 'own_file', kd.object_id, null::uuid,
              kd.title || case when kd.kind = 'pdf' then ', page ' || p.position
                               when p.label <> '' then ': ' || p.label else '' end,
              p.body, p.search
         from public.kb_document_pages p
         join public.kb_documents kd on kd.object_id = p.object_id, q
        where p.user_id = $1 and p.search @@ q.query
     )
     select h.kind, h.id, h.course_id, h.title, c.title as course,
            ts_headline('english', left(h.text, 100000), q.query,
              'MaxFragments=2, MaxWords=45, MinWords=20, StartSel="", StopSel="", FragmentDelimiter=" … "') as text,
            (select count(*) from unnest(q.lexemes) x where h.doc @@ to_tsquery('english', x))::float
              / greatest(cardinality(q.lexemes), 1) as coverage
       from hits h cross join q left join public.courses c on c.id = h.course_id
      order by coverage desc, ts_rank_cd(h.doc, q.query) desc, h.kind, h.title
      limit $4`,
    [userId, question, courseId, limit],
  );
  return rows
    .filter((row) => row.coverage >= MIN_COVERAGE)
    .map((row) => ({
      kind: row.kind,
      id: row.id,
      title: row.title,
      course: row.course,
      href:
        row.kind === 'own_file'
          ? null
          : row.kind === 'question'
            ? `/app/courses/${row.course_id}`
            : `/app/courses/${row.course_id}/lessons/${row.id}`,
      passage: plain(row.text),
      coverage: row.coverage,
    }));
}

/** How a source is named in a reply: a link into the app, or the learner's own file. */
export function sourceLabel(hit: KnowledgeSource): string {
  if (hit.href === null) return `your file *${hit.title}*`;
  const what = { lesson: 'the lesson', question: 'the refresher', file: 'the file of the lesson' }[
    hit.kind as 'lesson' | 'question' | 'file'
  ];
  return `${what} [${hit.title}](${hit.href}) in *${hit.course}*`;
}

/** The offline engine's concise answer: the best passage and its source, or "I don't know". */
export function knowledgeReply(hits: readonly KnowledgeHit[]): string {
  const best = hits[0];
  if (!best) {
    return "I don't know: nothing in your courses' material or your own files matches that question. Try other words, pick a course, or ask your instructor.";
  }
  const key = (hit: KnowledgeHit) => hit.href ?? `${hit.kind}:${hit.id}`;
  // Several questions share a refresher: each source is listed once.
  const more = hits
    .slice(1)
    .filter(
      (hit, i, all) => key(hit) !== key(best) && all.findIndex((h) => key(h) === key(hit)) === i,
    )
    .map((hit) => `- ${sourceLabel(hit)}`)
    .join('\n');
  return `${best.passage}\n\nSource: ${sourceLabel(best)}.${more ? `\n\nSee also:\n${more}` : ''}`;
}
