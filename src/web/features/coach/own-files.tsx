/**
 * "Your files" on the coach page: the learner's own notes and readings (PDF, ePub, text,
 * Markdown) that General Knowledge mode answers from, for them alone (decision 0221).
 */
import { useRef, useState, type FormEvent } from 'react';
import { FileText, Trash2, Upload } from 'lucide-react';
import { toast } from 'sonner';
import { LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import {
  OWN_FILE_ACCEPT,
  ownFileProblem,
  useAddOwnFile,
  useOwnFiles,
  useRemoveOwnFile,
} from './api/own-files';

export function OwnFiles({ userId }: { userId: string }) {
  const files = useOwnFiles(userId);
  const add = useAddOwnFile(userId);
  const remove = useRemoveOwnFile(userId);
  const [chosen, setChosen] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  const formRef = useRef<HTMLFormElement>(null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!chosen) {
      setError('Choose a file first.');
      return;
    }
    const problem = ownFileProblem(chosen);
    if (problem) {
      setError(problem);
      return;
    }
    add.mutate(chosen, {
      onSuccess: () => {
        toast.success(`Added ${chosen.name}: the coach can answer from it now.`);
        setChosen(null);
        setError(undefined);
        formRef.current?.reset();
      },
      onError: (failure) => setError(failure.message),
    });
  }

  return (
    <Section
      id="coach-own-files"
      title="Your files"
      description="Notes and readings General knowledge answers from. Only you can see them."
    >
      <form ref={formRef} className="grid gap-3" onSubmit={onSubmit}>
        <Field
          label="Add a file"
          type="file"
          accept={OWN_FILE_ACCEPT}
          hint="PDF, ePub, .txt or .md, up to 20 MB."
          error={error}
          className="[&_input]:h-auto [&_input]:py-1.5"
          onChange={(event) => {
            setChosen(event.target.files?.[0] ?? null);
            setError(undefined);
          }}
        />
        <div>
          <Button type="submit" size="sm" disabled={add.isPending}>
            <Upload aria-hidden="true" />
            {add.isPending ? 'Reading the file…' : 'Add file'}
          </Button>
        </div>
      </form>
      <div className="mt-4">
        {files.isPending ? (
          <LoadingBlock label="Loading your files…" />
        ) : files.isError ? (
          <LoadError
            message={`Could not load your files: ${files.error.message}`}
            onRetry={() => void files.refetch()}
          />
        ) : files.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No files yet.</p>
        ) : (
          <ul className="grid gap-2" aria-label="Your files">
            {files.data.map((file) => (
              <li key={file.path} className="flex items-start justify-between gap-2 text-sm">
                <div className="flex min-w-0 gap-2">
                  <FileText className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                  <div className="min-w-0">
                    <p className="truncate font-medium">{file.title}</p>
                    <p className="truncate text-xs text-muted-foreground">{file.name}</p>
                  </div>
                </div>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={remove.isPending}
                  aria-label={`Remove ${file.title}`}
                  onClick={() =>
                    remove.mutate(file.path, {
                      onSuccess: () => toast.success(`Removed ${file.title}.`),
                      onError: (failure) => toast.error(failure.message),
                    })
                  }
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}
