/**
 * Why an uploaded file cannot be adapted, in words an educator can act on. The job records
 * the code and the message on its stage; nothing of the file is kept beyond the job's own
 * storage.
 */
export type IngestErrorCode =
  | 'too_large'
  | 'wrong_extension'
  | 'unsupported'
  | 'corrupt'
  | 'encrypted'
  | 'no_text'
  | 'zip_bomb'
  | 'unsafe_path'
  | 'symlink'
  | 'unsafe_xml'
  | 'external_reference'
  | 'not_scorm'
  | 'no_material';

export class IngestError extends Error {
  constructor(
    public readonly code: IngestErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IngestError';
  }
}

export const INGEST_LIMITS = {
  /** Largest upload (the adapt-sources bucket's limit, db/app/0800). */
  maxFileBytes: 50 * 1024 * 1024,
  /** ZIP archives (SCORM, DOCX): entries, their declared size together, and the ratio. */
  maxEntries: 5000,
  maxUnpackedBytes: 200 * 1024 * 1024,
  /** A larger entry may not inflate more than this many times its compressed size. */
  maxRatio: 100,
  /** Entries below this size are exempt from the ratio (a run of spaces compresses well). */
  ratioExemptBytes: 1024 * 1024,
  maxPdfPages: 2000,
  /** Text kept from one document. */
  maxTextChars: 5_000_000,
} as const;

export const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
