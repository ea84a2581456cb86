/**
 * A course's assignments: a lesson or a quiz with a due date, for every learner enrolled
 * (their dashboard lists it until it is due). Set one with the form, remove one from the list.
 */
import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import {
  assignmentSchema,
  useAssignments,
  useCreateAssignment,
  useDeleteAssignment,
  type Assignment,
} from './api/assignments';
import { useCourseOutline, type CourseOutline } from './api/get-course-outline';
import { Field, Select, Textarea, fieldErrors } from './teaching-fields';
import { formatDateTime } from './teaching-format';
import { teachingPaths } from './teaching-paths';

export function AssignmentsPage() {
  const session = useAppSession();
  const { courseId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  const back = { to: teachingPaths.progress(courseId), label: 'Back to learner progress' };

  if (outline.isPending) {
    return (
      <AppPage title="" back={back}>
        <LoadingBlock label="Loading the course…" />
      </AppPage>
    );
  }
  if (outline.isError) {
    return (
      <AppPage title="Assignments" back={back}>
        <LoadError
          message={`Could not load the course: ${outline.error.message}`}
          onRetry={() => void outline.refetch()}
        />
      </AppPage>
    );
  }
  if (!outline.data) {
    return (
      <AppPage
        title="Course not found"
        back={{ to: teachingPaths.courses(), label: 'Back to your courses' }}
      >
        <EmptyState>
          This course does not exist or you do not teach it. Choose one of your courses under
          Teaching.
        </EmptyState>
      </AppPage>
    );
  }
  return (
    <AppPage
      title="Assignments"
      intro={`${outline.data.title}: lessons and quizzes every enrolled learner should finish by a date.`}
      back={back}
    >
      <AssignmentList outline={outline.data} />
      <NewAssignmentForm outline={outline.data} />
    </AppPage>
  );
}

function targetName(outline: CourseOutline, assignment: Assignment): string {
  if (assignment.lessonId) {
    const lesson = outline.lessons.find((l) => l.id === assignment.lessonId);
    return `Lesson: ${lesson?.title ?? 'removed'}`;
  }
  const quiz = outline.quizzes.find((q) => q.id === assignment.assessmentId);
  return `Quiz: ${quiz?.title ?? 'removed'}`;
}

function AssignmentList({ outline }: { outline: CourseOutline }) {
  const session = useAppSession();
  const assignments = useAssignments(session.userId, outline.id);
  const remove = useDeleteAssignment();
  // Read once per render of the list: past assignments are marked, not hidden.
  const [now] = useState(() => Date.now());

  return (
    <Section title="Set so far" id="assignments-list">
      {assignments.isPending ? (
        <LoadingBlock label="Loading assignments…" />
      ) : assignments.isError ? (
        <LoadError
          message={`Could not load the assignments: ${assignments.error.message}`}
          onRetry={() => void assignments.refetch()}
        />
      ) : assignments.data.length === 0 ? (
        <EmptyState>No assignment yet. Set the first one with the form below.</EmptyState>
      ) : (
        <ul className="grid gap-2">
          {assignments.data.map((assignment) => {
            const removing = remove.isPending && remove.variables?.id === assignment.id;
            const past = new Date(assignment.dueAt).getTime() < now;
            return (
              <li
                key={assignment.id}
                className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3"
              >
                <div className="min-w-0">
                  <p className="font-medium">{assignment.title}</p>
                  <p className="text-sm text-muted-foreground">
                    {targetName(outline, assignment)} · {past ? 'was due' : 'due'}{' '}
                    {formatDateTime(assignment.dueAt)}
                  </p>
                  {assignment.instructions && (
                    <p className="mt-1 text-sm whitespace-pre-line">{assignment.instructions}</p>
                  )}
                </div>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={removing}
                  onClick={() =>
                    remove.mutate(
                      { userId: session.userId, courseId: outline.id, id: assignment.id },
                      {
                        onSuccess: () => toast.success('Assignment removed.'),
                        onError: (error) =>
                          toast.error(`Could not remove the assignment: ${error.message}`),
                      },
                    )
                  }
                >
                  <Trash2 aria-hidden="true" />
                  {removing ? 'Removing…' : 'Remove'}
                  <span className="sr-only"> “{assignment.title}”</span>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}

function NewAssignmentForm({ outline }: { outline: CourseOutline }) {
  const session = useAppSession();
  const create = useCreateAssignment();
  const [target, setTarget] = useState('');
  const [title, setTitle] = useState('');
  const [dueAt, setDueAt] = useState('');
  const [instructions, setInstructions] = useState('');
  const [lastSuggestion, setLastSuggestion] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const nothingToAssign = outline.lessons.length === 0 && outline.quizzes.length === 0;

  function chooseTarget(value: string) {
    setTarget(value);
    // The lesson's or quiz's name is the natural title until the instructor writes another.
    const [kind, id] = value.split(':');
    const name =
      kind === 'lesson'
        ? outline.lessons.find((l) => l.id === id)?.title
        : outline.quizzes.find((q) => q.id === id)?.title;
    if (name && (title === '' || title === lastSuggestion)) {
      setTitle(name);
      setLastSuggestion(name);
    }
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    const form = { target, title, dueAt, instructions };
    const parsed = assignmentSchema(new Date()).safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    create.mutate(
      { userId: session.userId, courseId: outline.id, form },
      {
        onSuccess: () => {
          toast.success(`Assigned “${parsed.data.title}”.`);
          setTarget('');
          setTitle('');
          setDueAt('');
          setInstructions('');
          setLastSuggestion('');
        },
        onError: (error) => {
          setRefusal(error.message);
          toast.error(`Could not set the assignment: ${error.message}`);
        },
      },
    );
  }

  return (
    <Section title="New assignment" id="new-assignment">
      {nothingToAssign ? (
        <EmptyState>
          This course has no lessons or quizzes yet. Add them in the course editor, then assign them
          here.
        </EmptyState>
      ) : (
        <form onSubmit={submit} noValidate className="grid gap-4" aria-labelledby="new-assignment">
          <Field label="Lesson or quiz" error={errors.target}>
            {(control) => (
              <Select {...control} value={target} onChange={(e) => chooseTarget(e.target.value)}>
                <option value="">Choose a lesson or quiz</option>
                {outline.modules.map((module) => (
                  <optgroup key={module.id} label={`${module.position}. ${module.title}`}>
                    {outline.lessons
                      .filter((l) => l.moduleId === module.id)
                      .map((l) => (
                        <option key={l.id} value={`lesson:${l.id}`}>
                          Lesson: {l.title}
                        </option>
                      ))}
                    {outline.quizzes
                      .filter((q) => q.moduleId === module.id)
                      .map((q) => (
                        <option key={q.id} value={`quiz:${q.id}`}>
                          Quiz: {q.title}
                          {q.published ? '' : ' (not published)'}
                        </option>
                      ))}
                  </optgroup>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Title" error={errors.title}>
            {(control) => (
              <Input {...control} value={title} onChange={(e) => setTitle(e.target.value)} />
            )}
          </Field>
          <Field label="Due" error={errors.dueAt} hint="Your local time.">
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                className="w-64"
                value={dueAt}
                onChange={(e) => setDueAt(e.target.value)}
              />
            )}
          </Field>
          <Field label="Instructions (optional)" error={errors.instructions}>
            {(control) => (
              <Textarea
                {...control}
                rows={3}
                value={instructions}
                onChange={(e) => setInstructions(e.target.value)}
              />
            )}
          </Field>
          {refusal && <Notice tone="error">{refusal}</Notice>}
          <Button type="submit" className="w-fit" disabled={create.isPending}>
            {create.isPending ? 'Assigning…' : 'Assign to every learner'}
          </Button>
        </form>
      )}
    </Section>
  );
}
