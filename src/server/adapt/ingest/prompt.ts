/**
 * A typed course prompt ("an introduction to photosynthesis for first-year biology"). With a
 * model configured, the model drafts the course text. Without one, the lesson is assembled
 * from the course library: the lessons and file pages the job's owner may read that match the
 * prompt best, searched as the owner so row-level security decides what is theirs to use, and
 * the stage's report says that is what happened.
 */
import { AiFailedError, type AiProvider, type EngineInfo } from '../../ai/provider';
import type { Database } from '../../db/types';
import type { ExtractedBlock, ExtractedText } from '../lesson';
import { IngestError } from './ingest-error';

export interface PromptResult {
  extracted: ExtractedText;
  engine: EngineInfo;
  /** What the insights panel says about where the text came from. */
  note: string;
}

const MAX_PASSAGES = 8;

const SYSTEM = `You write university course material. Write the text of one lesson for the request below: a title line starting with "# ", then 3 to 6 sections, each starting with "## " and its heading, in plain paragraphs. Define every key term in a sentence of the form "X is ...". State facts, numbers and dates precisely. No lists of links, no Markdown tables.`;

function blocksFromMarkdown(markdown: string): ExtractedBlock[] {
  return markdown
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => ({ text: p, source: { kind: 'prompt' } }));
}

async function fromModel(ai: AiProvider, prompt: string): Promise<PromptResult> {
  const reply = await ai.generate({
    route: 'general',
    system: SYSTEM,
    messages: [{ role: 'user', content: prompt }],
    maxOutputTokens: 4000,
  });
  const blocks = blocksFromMarkdown(reply.text);
  if (blocks.length === 0) {
    throw new IngestError('no_material', `${reply.engine.label} returned no text for the prompt.`);
  }
  const heading = blocks.find((b) => b.text.startsWith('# '));
  return {
    extracted: { format: 'prompt', title: heading ? heading.text.slice(2).trim() : null, blocks },
    engine: reply.engine,
    note: `${reply.engine.label} wrote the course text from the prompt.`,
  };
}

async function fromLibrary(
  db: Database,
  owner: string,
  prompt: string,
  courseId: string | null,
): Promise<PromptResult> {
  // Any of the prompt's words may match ("photosynthesis light" finds either), best first.
  const words = prompt.match(/[\p{L}\p{N}]{3,}/gu)?.slice(0, 30) ?? [];
  if (words.length === 0) {
    throw new IngestError('no_material', 'The prompt has no words to look for in the library.');
  }
  const { rows } = await db.asRole({ role: 'authenticated', sub: owner }, (tx) =>
    tx.query<{ title: string; course: string; body: string; position: number | null }>(
      `with q as (select websearch_to_tsquery('english', $1) as q)
       select * from (
         select l.title, c.title as course, l.body, null::int as position,
                ts_rank_cd(ls.search, q.q) as rank
           from q
           join public.lesson_search ls on ls.search @@ q.q
           join public.lessons l on l.id = ls.lesson_id
           join public.courses c on c.id = l.course_id
          where l.kind = 'markdown' and ($2::uuid is null or ls.course_id = $2)
         union all
         select coalesce(nullif(d.title, ''), l.title), c.title, p.body, p.position,
                ts_rank_cd(p.search, q.q)
           from q
           join public.course_document_pages p on p.search @@ q.q
           join public.course_documents d on d.object_id = p.object_id
           join public.lessons l on l.file_path = d.file_path and l.course_id = d.course_id
           join public.courses c on c.id = l.course_id
          where $2::uuid is null or p.course_id = $2
       ) hits
       order by rank desc
       limit ${MAX_PASSAGES}`,
      [words.join(' or '), courseId],
    ),
  );
  const blocks: ExtractedBlock[] = rows
    .filter((r) => r.body && r.body.trim() !== '')
    .map((r) => ({
      text: `# ${r.title}${r.position ? ` (page ${r.position})` : ''}\n\n${r.body.trim()}`,
      source: { kind: 'prompt' },
    }));
  if (blocks.length === 0) {
    throw new IngestError(
      'no_material',
      'No model is configured to write from a prompt, and no lesson or file in the course library you can read matches it. Upload the material instead, or configure a model (AI_* settings).',
    );
  }
  return {
    extracted: { format: 'prompt', title: prompt.slice(0, 120), blocks },
    engine: { kind: 'offline', label: 'Built-in offline engine · course library search' },
    note: `No model is configured, so the lesson was assembled from ${blocks.length} passage${blocks.length === 1 ? '' : 's'} of the course library that match the prompt (${[...new Set(rows.map((r) => r.course))].join(', ')}).`,
  };
}

export async function readPrompt(
  deps: { db: Database; ai: AiProvider },
  job: { ownerId: string; prompt: string; courseId: string | null },
): Promise<PromptResult> {
  if (deps.ai.configured('general')) {
    try {
      return await fromModel(deps.ai, job.prompt);
    } catch (error) {
      if (!(error instanceof AiFailedError)) throw error;
      const offline = await fromLibrary(deps.db, job.ownerId, job.prompt, job.courseId);
      return { ...offline, note: `${error.message}. ${offline.note}` };
    }
  }
  return fromLibrary(deps.db, job.ownerId, job.prompt, job.courseId);
}
