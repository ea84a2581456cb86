/**
 * A lesson's editor: title, minutes and kind, then the content the kind needs — Markdown with
 * a live preview through the one safe renderer (scripts and unsafe links are never run), a
 * PDF or ePub file for the private course-files bucket, or a video address.
 */
import { useDeferredValue, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { LoadError, LoadingBlock, Section } from '@/components/app-page';
import { MarkdownDocument } from '@/components/markdown-document';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { lessonFileName } from '@/lib/lesson-file-name';
import { useRouteParams } from '@/lib/use-route-params';
import { videoEmbed } from '@/lib/video-embed';
import { useDeleteLesson } from './api/delete-lesson';
import { useCourseOutline, type CourseOutline } from './api/get-course-outline';
import { CourseGate, Frame } from './course-gate';
import { useEditorLesson, type EditorLessonDetail } from './api/get-lesson';
import { useSaveLesson } from './api/save-lesson';
import { ConfirmDelete } from './confirm-delete';
import { Field, FormError, saveErrors, zodFieldErrors, type FieldErrors } from './editor-form';
import { editorPaths } from './editor-paths';
import { Missing, kindLabels } from './editor-ui';
import {
  MARKDOWN_LIMIT_BYTES,
  byteLength,
  fileKinds,
  formatBytes,
  lessonFromDraft,
  lessonSchema,
  type LessonDraft,
  type LessonInput,
} from './lesson-schema';

export function NewLessonPage() {
  const session = useAppSession();
  const { courseId = '', moduleId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  return (
    <CourseGate outline={outline} courseId={courseId}>
      {(course) => {
        const module = course.modules.find((m) => m.id === moduleId);
        if (!module) return <Missing what="module" courseId={courseId} />;
        return (
          <LessonEditor
            course={course}
            moduleId={module.id}
            moduleTitle={module.title}
            lesson={null}
          />
        );
      }}
    </CourseGate>
  );
}

export function EditLessonPage() {
  const session = useAppSession();
  const { courseId = '', lessonId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  const lesson = useEditorLesson(session.userId, courseId, lessonId);
  return (
    <CourseGate outline={outline} courseId={courseId}>
      {(course) =>
        lesson.isPending ? (
          <Frame courseId={courseId} title="Edit lesson">
            <LoadingBlock label="Loading the lesson…" />
          </Frame>
        ) : lesson.isError ? (
          <Frame courseId={courseId} title="Edit lesson">
            <LoadError
              message={`Could not load the lesson: ${lesson.error.message}`}
              onRetry={() => void lesson.refetch()}
            />
          </Frame>
        ) : !lesson.data ? (
          <Missing what="lesson" courseId={courseId} />
        ) : (
          <LessonEditor
            key={lesson.data.id}
            course={course}
            moduleId={lesson.data.moduleId}
            moduleTitle={lesson.data.moduleTitle}
            lesson={lesson.data}
          />
        )
      }
    </CourseGate>
  );
}

function draftOf(lesson: EditorLessonDetail | null): LessonDraft {
  return {
    kind: lesson?.kind ?? 'markdown',
    title: lesson?.title ?? '',
    estimatedMinutes: String(lesson?.estimatedMinutes ?? 10),
    body: lesson?.body ?? '',
    videoUrl: lesson?.videoUrl ?? '',
    file: null,
    filePath: lesson?.filePath ?? null,
    storedKind: lesson?.kind ?? null,
  };
}

function LessonEditor({
  course,
  moduleId,
  moduleTitle,
  lesson,
}: {
  course: CourseOutline;
  moduleId: string;
  moduleTitle: string;
  lesson: EditorLessonDetail | null;
}) {
  const session = useAppSession();
  const navigate = useNavigate();
  const save = useSaveLesson();
  const remove = useDeleteLesson();
  const [draft, setDraft] = useState(() => draftOf(lesson));
  const [errors, setErrors] = useState<FieldErrors>({});
  const preview = useDeferredValue(draft.body);
  const [fileInputKey, setFileInputKey] = useState(0);

  function set<K extends keyof LessonDraft>(key: K, value: LessonDraft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = lessonSchema.safeParse(lessonFromDraft(draft));
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    const input: LessonInput = parsed.data;
    save.mutate(
      {
        userId: session.userId,
        courseId: course.id,
        moduleId,
        lessonId: lesson?.id,
        previousFilePath: lesson?.filePath ?? null,
        lesson: input,
      },
      {
        onSuccess: ({ id, filePath }) => {
          toast.success(lesson ? 'Lesson saved.' : `Lesson “${input.title}” added.`);
          if (lesson) {
            // The saved file is now the stored one; the file input starts empty again.
            setDraft((current) => ({ ...current, file: null, filePath, storedKind: input.kind }));
            setFileInputKey((key) => key + 1);
          } else {
            void navigate(editorPaths.lesson(course.id, id), { replace: true });
          }
        },
        onError: (error) => {
          setErrors(saveErrors(error));
          toast.error(`Could not save the lesson: ${error.message}`);
        },
      },
    );
  }

  const bytes = byteLength(draft.body);
  const embed = videoEmbed(draft.videoUrl.trim());

  return (
    <Frame courseId={course.id} title={lesson ? `Edit lesson: ${lesson.title}` : 'New lesson'}>
      <p className="-mt-4 text-sm text-muted-foreground">
        {course.title} · module “{moduleTitle}”
      </p>
      <form onSubmit={submit} noValidate className="grid gap-5">
        <FormError errors={errors} />
        <div className="grid gap-4 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)_minmax(0,1fr)]">
          <Field label="Title" error={errors.title}>
            {(props) => (
              <Input
                {...props}
                value={draft.title}
                maxLength={200}
                onChange={(e) => set('title', e.target.value)}
              />
            )}
          </Field>
          <Field label="Kind" error={errors.kind}>
            {(props) => (
              <NativeSelect
                {...props}
                value={draft.kind}
                onChange={(e) => set('kind', e.target.value as LessonDraft['kind'])}
              >
                {(Object.keys(kindLabels) as LessonDraft['kind'][]).map((kind) => (
                  <option key={kind} value={kind}>
                    {kindLabels[kind]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field label="Minutes" error={errors.estimatedMinutes}>
            {(props) => (
              <Input
                {...props}
                type="number"
                inputMode="numeric"
                min={1}
                max={600}
                value={draft.estimatedMinutes}
                onChange={(e) => set('estimatedMinutes', e.target.value)}
              />
            )}
          </Field>
        </div>

        {draft.kind === 'markdown' && (
          <div className="grid gap-4 lg:grid-cols-2">
            <Field
              label="Text (Markdown)"
              error={errors.body}
              description={`${formatBytes(bytes)} of ${formatBytes(MARKDOWN_LIMIT_BYTES)}. Headings with #, lists with -, links as [text](https://…). HTML is shown as text, never run.`}
            >
              {(props) => (
                <Textarea
                  {...props}
                  rows={18}
                  spellCheck
                  className="min-h-80 font-mono text-sm [field-sizing:fixed]"
                  value={draft.body}
                  onChange={(e) => set('body', e.target.value)}
                />
              )}
            </Field>
            <Section title="Preview" id="lesson-preview" className="min-w-0">
              {preview.trim() ? (
                <MarkdownDocument text={preview} demoteHeadings className="max-w-none" />
              ) : (
                <p className="text-sm text-muted-foreground">
                  Start writing on the left; the lesson appears here as students will see it.
                </p>
              )}
            </Section>
          </div>
        )}

        {draft.kind === 'video' && (
          <Field
            label="Video address"
            error={errors.videoUrl}
            description={
              !draft.videoUrl.trim()
                ? 'A YouTube or Vimeo address, or the https address of an .mp4, .webm or .ogv file.'
                : embed.kind === 'iframe'
                  ? `Students watch it in the ${embed.src.includes('vimeo') ? 'Vimeo' : 'YouTube'} player on the lesson page.`
                  : embed.kind === 'file'
                    ? 'Students watch it in the browser’s own player.'
                    : 'This address cannot be played on the lesson page.'
            }
          >
            {(props) => (
              <Input
                {...props}
                type="url"
                inputMode="url"
                placeholder="https://www.youtube.com/watch?v=…"
                value={draft.videoUrl}
                onChange={(e) => set('videoUrl', e.target.value)}
              />
            )}
          </Field>
        )}

        {(draft.kind === 'pdf' || draft.kind === 'epub') && (
          <FileField
            key={fileInputKey}
            kind={draft.kind}
            error={errors.file}
            file={draft.file}
            stored={draft.storedKind === draft.kind ? draft.filePath : null}
            onChange={(file) => set('file', file)}
          />
        )}

        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending
              ? draft.file
                ? 'Uploading and saving…'
                : 'Saving…'
              : lesson
                ? 'Save lesson'
                : 'Add lesson'}
          </Button>
          {lesson && (
            <ConfirmDelete
              label={`Delete lesson “${lesson.title}”`}
              title={`Delete “${lesson.title}”?`}
              description="The lesson, its file if it has one, and students’ progress on it are deleted. This cannot be undone."
              pending={remove.isPending}
              onConfirm={() =>
                remove
                  .mutateAsync({
                    userId: session.userId,
                    courseId: course.id,
                    lessonId: lesson.id,
                    filePath: lesson.filePath,
                  })
                  .then(() => {
                    toast.success(`Lesson “${lesson.title}” deleted.`);
                    void navigate(editorPaths.course(course.id));
                  })
                  .catch((error: Error) => {
                    toast.error(`Could not delete the lesson: ${error.message}`);
                    throw error;
                  })
              }
            />
          )}
        </div>
      </form>
    </Frame>
  );
}

function FileField({
  kind,
  error,
  file,
  stored,
  onChange,
}: {
  kind: keyof typeof fileKinds;
  error?: string;
  file: File | null;
  stored: string | null;
  onChange: (file: File | null) => void;
}) {
  const rule = fileKinds[kind];
  const storedName = stored ? lessonFileName(stored) : undefined;
  return (
    <Field
      label={`${rule.label} file`}
      error={error}
      description={
        file
          ? `Chosen: ${file.name} (${formatBytes(file.size)}); it is uploaded when you save.`
          : storedName
            ? `Current file: ${storedName}. Choose another to replace it.`
            : `A ${rule.label} file (${rule.extension}) of up to 100 MB. Only students of the course can open it.`
      }
    >
      {(props) => (
        <Input
          {...props}
          type="file"
          accept={`${rule.extension},${rule.types.join(',')}`}
          onChange={(e) => onChange(e.target.files?.[0] ?? null)}
          className="h-auto py-1.5"
        />
      )}
    </Field>
  );
}
