/** A course's details: title, subject, description, who can find it, and whether it is published. */
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { courseSchemaFor, useSaveCourse, type CourseInput } from './api/save-course';
import { Field, FormError, saveErrors, zodFieldErrors, type FieldErrors } from './editor-form';

export const emptyCourse: CourseInput = {
  title: '',
  subject: '',
  description: '',
  visibility: 'private',
  published: false,
};

export function CourseForm({
  courseId,
  initial,
  onSaved,
}: {
  courseId?: string;
  initial: CourseInput;
  onSaved: (id: string) => void;
}) {
  const session = useAppSession();
  const save = useSaveCourse();
  const [course, setCourse] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const personal = session.workspace.kind === 'personal';
  const publishedId = useId();

  function set<K extends keyof CourseInput>(key: K, value: CourseInput[K]) {
    setCourse((current) => ({ ...current, [key]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = courseSchemaFor(session.workspace).safeParse(course);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(
      { userId: session.userId, workspace: session.workspace, courseId, course: parsed.data },
      {
        onSuccess: ({ id }) => {
          toast.success(courseId ? 'Course saved.' : `Course “${parsed.data.title}” created.`);
          onSaved(id);
        },
        onError: (error) => {
          setErrors(saveErrors(error));
          toast.error(`Could not save the course: ${error.message}`);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <FormError errors={errors} />
      <Field label="Title" error={errors.title}>
        {(props) => (
          <Input
            {...props}
            value={course.title}
            maxLength={200}
            onChange={(e) => set('title', e.target.value)}
          />
        )}
      </Field>
      <Field label="Subject" error={errors.subject} description="For example Algebra or Biology.">
        {(props) => (
          <Input
            {...props}
            value={course.subject}
            maxLength={120}
            onChange={(e) => set('subject', e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Description"
        error={errors.description}
        description="What students will learn; shown in the course library."
      >
        {(props) => (
          <Textarea
            {...props}
            rows={4}
            value={course.description}
            onChange={(e) => set('description', e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Who can find it"
        error={errors.visibility}
        description={
          personal
            ? 'Private: only you. Public: anyone with an account can find and enrol.'
            : 'Private: only people you enrol. Organization: every member can find it. Public: anyone with an account.'
        }
      >
        {(props) => (
          <NativeSelect
            {...props}
            value={course.visibility}
            onChange={(e) => set('visibility', e.target.value as CourseInput['visibility'])}
          >
            <option value="private">Private</option>
            {!personal && <option value="organization">Organization</option>}
            <option value="public">Public</option>
          </NativeSelect>
        )}
      </Field>
      <div className="flex items-start gap-2">
        <input
          id={publishedId}
          type="checkbox"
          className="mt-0.5 size-4 accent-primary"
          checked={course.published}
          onChange={(e) => set('published', e.target.checked)}
        />
        <label htmlFor={publishedId} className="grid gap-0.5 text-sm">
          <span className="font-medium">Published</span>
          <span className="text-xs text-muted-foreground">
            Students can find a published course; a draft is seen only by its instructors.
          </span>
        </label>
      </div>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : courseId ? 'Save details' : 'Create course'}
        </Button>
      </div>
    </form>
  );
}
