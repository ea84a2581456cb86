/**
 * The learner's own knowledge base (decision 0221): files in the private `kb_files` bucket,
 * under their own folder, whose text General Knowledge mode searches for them alone. Adding a
 * file uploads it and has the server extract its text; a file the server cannot read is
 * removed again and the reason shown. Removing a file removes its text with it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { coachKeys } from './coach-keys';

export const KB_BUCKET = 'kb_files';
export const OWN_FILE_MAX_BYTES = 20 * 1024 * 1024;
/** What the bucket takes (db/app/0530), by extension. */
const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  txt: 'text/plain',
  md: 'text/markdown',
};
export const OWN_FILE_ACCEPT = '.pdf,.epub,.txt,.md';

export interface OwnFile {
  path: string;
  name: string;
  title: string;
  kind: 'pdf' | 'epub' | 'text';
  sections: number;
  extractedAt: string;
}

export async function getOwnFiles(userId: string): Promise<OwnFile[]> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('kb_documents')
    .select('file_path, title, kind, section_count, extracted_at')
    .eq('user_id', userId)
    .order('extracted_at', { ascending: false });
  if (error) throw new Error(error.message);
  return (
    data as {
      file_path: string;
      title: string;
      kind: OwnFile['kind'];
      section_count: number;
      extracted_at: string;
    }[]
  ).map((row) => ({
    path: row.file_path,
    name: row.file_path.slice(row.file_path.indexOf('/') + 1),
    title: row.title,
    kind: row.kind,
    sections: row.section_count,
    extractedAt: row.extracted_at,
  }));
}

export function useOwnFiles(userId: string) {
  return useQuery({ queryKey: coachKeys.ownFiles(userId), queryFn: () => getOwnFiles(userId) });
}

/** A file's name made safe for a storage path: letters, digits, dots, dashes and underscores. */
export function storedName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = (dot > 0 ? name.slice(0, dot) : name)
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return `${base || 'file'}.${extension}`;
}

/** Why a chosen file cannot be added, before anything is sent; null when it can. */
export function ownFileProblem(file: File): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!TYPES[extension]) return 'Choose a PDF, ePub, plain text (.txt) or Markdown (.md) file.';
  if (file.size === 0) return 'The file is empty.';
  if (file.size > OWN_FILE_MAX_BYTES)
    return `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; files of up to 20 MB can be added.`;
  return null;
}

async function addOwnFile(userId: string, file: File): Promise<void> {
  const problem = ownFileProblem(file);
  if (problem) throw new Error(problem);
  const client = await getSupabase();
  const name = storedName(file.name);
  const path = `${userId}/${name}`;
  const extension = name.split('.').pop()!;
  const { error } = await client.storage
    .from(KB_BUCKET)
    .upload(path, file, { contentType: TYPES[extension], upsert: true });
  if (error) throw new Error(`The file could not be uploaded: ${error.message}`);
  const extracted = await client.functions.invoke('library/extract-own', { body: { path } });
  if (extracted.error) {
    await client.storage.from(KB_BUCKET).remove([path]);
    const response = (extracted.error as { context?: Response }).context;
    const body = (await response?.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `The file could not be read: ${extracted.error.message}`);
  }
}

async function removeOwnFile(path: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.storage.from(KB_BUCKET).remove([path]);
  if (error) throw new Error(`The file could not be removed: ${error.message}`);
}

export function useAddOwnFile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => addOwnFile(userId, file),
    onSettled: () => queryClient.invalidateQueries({ queryKey: coachKeys.ownFiles(userId) }),
  });
}

export function useRemoveOwnFile(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeOwnFile,
    onSettled: () => queryClient.invalidateQueries({ queryKey: coachKeys.ownFiles(userId) }),
  });
}
