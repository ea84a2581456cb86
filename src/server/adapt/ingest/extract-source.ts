/**
 * Stage 1: the job's source as text with its source positions. The format is decided by the
 * content and checked against the file's name; each reader refuses what it cannot read safely
 * with an IngestError, which the job records on the stage.
 */
import type { AiProvider, EngineInfo } from '../../ai/provider';
import type { Database } from '../../db/types';
import type { ExtractedText, SourceFormat } from '../lesson';
import { detectFormat } from './detect';
import { readDocx } from './docx';
import { IngestError, INGEST_LIMITS, megabytes } from './ingest-error';
import { readPdf } from './pdf';
import { readPrompt } from './prompt';
import { readScorm } from './scorm';
import { readTxt } from './txt';

export interface SourceInput {
  format: SourceFormat;
  ownerId: string;
  /** The uploaded file's name and bytes (absent for a prompt). */
  fileName: string | null;
  bytes: Uint8Array | null;
  prompt: string | null;
  courseId: string | null;
}

export interface ExtractionResult {
  extracted: ExtractedText;
  engine: EngineInfo;
  changes: string[];
}

const READERS: Record<Exclude<SourceFormat, 'prompt'>, string> = {
  pdf: 'pdf.js',
  docx: 'mammoth',
  txt: 'UTF-8 text reader',
  scorm: 'SCORM manifest reader',
};

function summary(extracted: ExtractedText): string {
  const chars = extracted.blocks.reduce((sum, b) => sum + b.text.length, 0);
  const positions = new Set(
    extracted.blocks.map((b) =>
      b.source.kind === 'page'
        ? `p${b.source.page}`
        : b.source.kind === 'sco'
          ? `s${b.source.sco}`
          : b.source.kind === 'paragraph'
            ? `q${b.source.paragraph}`
            : 'prompt',
    ),
  ).size;
  const unit =
    extracted.format === 'pdf'
      ? 'page'
      : extracted.format === 'scorm'
        ? 'SCO'
        : extracted.format === 'prompt'
          ? 'passage'
          : 'paragraph';
  return `Read ${positions.toLocaleString('en')} ${unit}${positions === 1 ? '' : 's'} with text, ${chars.toLocaleString('en')} characters.`;
}

export async function extractSource(
  deps: { db: Database; ai: AiProvider },
  input: SourceInput,
): Promise<ExtractionResult> {
  if (input.format === 'prompt') {
    const result = await readPrompt(deps, {
      ownerId: input.ownerId,
      prompt: input.prompt ?? '',
      courseId: input.courseId,
    });
    return {
      extracted: result.extracted,
      engine: result.engine,
      changes: [result.note, summary(result.extracted)],
    };
  }
  const bytes = input.bytes;
  const name = input.fileName ?? 'upload';
  if (!bytes) throw new IngestError('corrupt', 'The uploaded file is missing from storage.');
  if (bytes.byteLength > INGEST_LIMITS.maxFileBytes) {
    throw new IngestError(
      'too_large',
      `"${name}" is ${megabytes(bytes.byteLength)}; files of up to ${megabytes(INGEST_LIMITS.maxFileBytes)} can be adapted.`,
    );
  }
  if (bytes.byteLength === 0) throw new IngestError('no_text', `"${name}" is empty.`);
  const format = detectFormat(name, bytes);
  let extracted: ExtractedText;
  const changes: string[] = [];
  if (format === 'pdf') extracted = await readPdf(bytes);
  else if (format === 'docx') extracted = await readDocx(bytes);
  else if (format === 'txt') extracted = readTxt(bytes);
  else {
    const { version, ...scorm } = readScorm(bytes);
    extracted = scorm;
    changes.push(`SCORM ${version} manifest, SCOs in the default organization's order.`);
  }
  const chars = extracted.blocks.reduce((sum, b) => sum + b.text.length, 0);
  if (chars > INGEST_LIMITS.maxTextChars) {
    throw new IngestError(
      'too_large',
      `"${name}" holds ${chars.toLocaleString('en')} characters of text; up to ${INGEST_LIMITS.maxTextChars.toLocaleString('en')} can be adapted.`,
    );
  }
  return {
    extracted,
    engine: { kind: 'offline', label: `Built-in extractor · ${READERS[format]}` },
    changes: [summary(extracted), ...changes],
  };
}
