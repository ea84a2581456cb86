/**
 * A module quiz's editor: title, instructions, attempts, closing time, whether short answers
 * are always graded by a person, published, and which
 * bank questions it asks in which order (chosen from the module's bank, ordered with move
 * buttons). Saved in steps that each either happen or not (decision 0120).
 */
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { useDeleteQuiz } from './api/delete-quiz';
import { useCourseOutline, type CourseOutline } from './api/get-course-outline';
import { useModuleBank, type BankQuestion } from './api/get-module-bank';
import { useEditorQuiz, type EditorQuiz } from './api/get-quiz';
import { useSaveQuiz } from './api/save-quiz';
import { ConfirmDelete } from './confirm-delete';
import { CourseGate, Frame } from './course-gate';
import { Field, FormError, saveErrors, zodFieldErrors, type FieldErrors } from './editor-form';
import { editorPaths } from './editor-paths';
import { Missing } from './editor-ui';
import { moveItem } from './move-item';
import { Group } from './question-fields';
import { typeLabels } from './question-schema';
import { localOf, quizFormSchema, quizFromDraft, type QuizDraft } from './quiz-schema';

export function NewQuizPage() {
  const session = useAppSession();
  const { courseId = '', moduleId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  return (
    <CourseGate outline={outline} courseId={courseId}>
      {(course) =>
        course.modules.some((m) => m.id === moduleId) ? (
          <QuizLoader course={course} moduleId={moduleId} quiz={null} />
        ) : (
          <Missing what="module" courseId={courseId} />
        )
      }
    </CourseGate>
  );
}

export function EditQuizPage() {
  const session = useAppSession();
  const { courseId = '', assessmentId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  const quiz = useEditorQuiz(session.userId, courseId, assessmentId);
  return (
    <CourseGate outline={outline} courseId={courseId}>
      {(course) =>
        quiz.isPending ? (
          <Frame courseId={courseId} title="Edit quiz">
            <LoadingBlock label="Loading the quiz…" />
          </Frame>
        ) : quiz.isError ? (
          <Frame courseId={courseId} title="Edit quiz">
            <LoadError
              message={`Could not load the quiz: ${quiz.error.message}`}
              onRetry={() => void quiz.refetch()}
            />
          </Frame>
        ) : !quiz.data ? (
          <Missing what="quiz" courseId={courseId} />
        ) : (
          <QuizLoader
            key={quiz.data.id}
            course={course}
            moduleId={quiz.data.moduleId}
            quiz={quiz.data}
          />
        )
      }
    </CourseGate>
  );
}

/** The module's bank, which the quiz chooses from. */
function QuizLoader({
  course,
  moduleId,
  quiz,
}: {
  course: CourseOutline;
  moduleId: string;
  quiz: EditorQuiz | null;
}) {
  const session = useAppSession();
  const bank = useModuleBank(session.userId, course.id, moduleId);
  const title = quiz ? 'Edit quiz' : 'New quiz';
  const back = { to: editorPaths.module(course.id, moduleId), label: 'Questions and quizzes' };
  if (bank.isPending) {
    return (
      <Frame courseId={course.id} title={title} back={back}>
        <LoadingBlock label="Loading the question bank…" />
      </Frame>
    );
  }
  if (bank.isError) {
    return (
      <Frame courseId={course.id} title={title} back={back}>
        <LoadError
          message={`Could not load the question bank: ${bank.error.message}`}
          onRetry={() => void bank.refetch()}
        />
      </Frame>
    );
  }
  return (
    <Frame courseId={course.id} title={title} back={back}>
      <QuizEditor course={course} moduleId={moduleId} quiz={quiz} bank={bank.data.questions} />
    </Frame>
  );
}

function QuizEditor({
  course,
  moduleId,
  quiz,
  bank,
}: {
  course: CourseOutline;
  moduleId: string;
  quiz: EditorQuiz | null;
  bank: BankQuestion[];
}) {
  const session = useAppSession();
  const navigate = useNavigate();
  const save = useSaveQuiz();
  const remove = useDeleteQuiz();
  const publishedId = useId();
  const gradedByPersonId = useId();
  const [draft, setDraft] = useState<QuizDraft>(() => ({
    title: quiz?.title ?? '',
    instructions: quiz?.instructions ?? '',
    published: quiz?.published ?? false,
    gradedByPerson: quiz?.gradedByPerson ?? false,
    maxAttempts: String(quiz?.maxAttempts ?? 1),
    dueAt: localOf(quiz?.dueAt ?? null),
    questionIds: quiz?.questionIds ?? [],
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [announcement, setAnnouncement] = useState('');
  const module = course.modules.find((m) => m.id === moduleId);
  const byId = new Map(bank.map((q) => [q.id, q]));
  // A question of another module or one deleted since stays listed by id until removed.
  const chosen = draft.questionIds.map((id) => ({ id, question: byId.get(id) }));

  function set<K extends keyof QuizDraft>(key: K, value: QuizDraft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  function toggle(id: string, on: boolean) {
    set('questionIds', on ? [...draft.questionIds, id] : draft.questionIds.filter((x) => x !== id));
  }

  function move(index: number, to: number) {
    const next = moveItem(draft.questionIds, index, to);
    set('questionIds', next);
    setAnnouncement(`Question moved to position ${to + 1} of ${next.length}.`);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = quizFormSchema.safeParse(quizFromDraft(draft));
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(
      {
        userId: session.userId,
        courseId: course.id,
        moduleId,
        assessmentId: quiz?.id,
        quiz: parsed.data,
      },
      {
        onSuccess: ({ id }) => {
          toast.success(quiz ? 'Quiz saved.' : `Quiz “${parsed.data.title}” created.`);
          if (!quiz) void navigate(editorPaths.quiz(course.id, id), { replace: true });
        },
        onError: (error) => {
          setErrors(saveErrors(error));
          toast.error(`Could not save the quiz: ${error.message}`);
        },
      },
    );
  }

  return (
    <>
      <p className="-mt-4 text-sm text-muted-foreground">
        {course.title} · module “{module?.title ?? ''}”
      </p>
      <form onSubmit={submit} noValidate className="grid max-w-3xl gap-5">
        <FormError errors={errors} />
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
        <Field label="Instructions" error={errors.instructions} description="Optional.">
          {(props) => (
            <Textarea
              {...props}
              rows={2}
              value={draft.instructions}
              onChange={(e) => set('instructions', e.target.value)}
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Attempts allowed" error={errors.maxAttempts}>
            {(props) => (
              <Input
                {...props}
                type="number"
                inputMode="numeric"
                min={1}
                max={20}
                value={draft.maxAttempts}
                onChange={(e) => set('maxAttempts', e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Closes at"
            error={errors.dueAt}
            description="Your local time; leave empty for a quiz that never closes."
          >
            {(props) => (
              <Input
                {...props}
                type="datetime-local"
                value={draft.dueAt}
                onChange={(e) => set('dueAt', e.target.value)}
              />
            )}
          </Field>
        </div>

        <Group
          legend={`Questions from the bank (${draft.questionIds.length} chosen)`}
          error={errors.questionIds}
        >
          {bank.length === 0 ? (
            <EmptyState
              action={
                <Button size="sm" variant="outline" asChild>
                  <Link to={editorPaths.newQuestion(course.id, moduleId)}>Add a question</Link>
                </Button>
              }
            >
              This module’s bank has no questions yet. Add some, then choose them here.
            </EmptyState>
          ) : (
            <ul className="grid gap-1.5">
              {bank.map((question) => (
                <li key={question.id} className="flex items-start gap-2 text-sm">
                  <input
                    id={`pick-${question.id}`}
                    type="checkbox"
                    className="mt-0.5 size-4 shrink-0 accent-primary"
                    checked={draft.questionIds.includes(question.id)}
                    onChange={(e) => toggle(question.id, e.target.checked)}
                  />
                  <label htmlFor={`pick-${question.id}`} className="min-w-0 break-words">
                    {question.prompt}{' '}
                    <span className="text-xs text-muted-foreground">
                      ({typeLabels[question.type]})
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </Group>

        {chosen.length > 0 && (
          <Group legend="Order students see">
            <p aria-live="polite" className="sr-only">
              {announcement}
            </p>
            {/* One track no wider than the form, so a long question truncates instead. */}
            <ol className="grid grid-cols-[minmax(0,1fr)] gap-1.5">
              {chosen.map(({ id, question }, index) => {
                const name = question ? question.prompt : 'A question no longer in this module';
                return (
                  <li key={id} className="flex items-center gap-2 rounded-md border p-2 text-sm">
                    <span className="w-6 shrink-0 text-right tabular-nums text-muted-foreground">
                      {index + 1}.
                    </span>
                    <span className="min-w-0 flex-1 truncate">{name}</span>
                    <Button
                      type="button"
                      size="icon"
                      variant="outline"
                      className="size-8"
                      aria-label={`Move question ${index + 1} up`}
                      disabled={index === 0}
                      onClick={() => move(index, index - 1)}
                    >
                      <ArrowUp aria-hidden="true" />
                    </Button>
                    <Button
                      type="button"
                      size="icon"
                      variant="outline"
                      className="size-8"
                      aria-label={`Move question ${index + 1} down`}
                      disabled={index === chosen.length - 1}
                      onClick={() => move(index, index + 1)}
                    >
                      <ArrowDown aria-hidden="true" />
                    </Button>
                    {!question && (
                      <Button
                        type="button"
                        size="sm"
                        variant="ghost"
                        onClick={() => toggle(id, false)}
                      >
                        Remove
                      </Button>
                    )}
                  </li>
                );
              })}
            </ol>
          </Group>
        )}

        <div className="flex items-start gap-2">
          <input
            id={gradedByPersonId}
            type="checkbox"
            className="mt-0.5 size-4 accent-primary"
            checked={draft.gradedByPerson}
            onChange={(e) => set('gradedByPerson', e.target.checked)}
          />
          <label htmlFor={gradedByPersonId} className="grid gap-0.5 text-sm">
            <span className="font-medium">Always graded by a person</span>
            <span className="text-xs text-muted-foreground">
              Short-text answers wait in your grading queue instead of being graded automatically by
              the answer evaluator. Multiple-choice and numeric answers are still marked at once.
            </span>
          </label>
        </div>
        <div className="flex items-start gap-2">
          <input
            id={publishedId}
            type="checkbox"
            className="mt-0.5 size-4 accent-primary"
            checked={draft.published}
            onChange={(e) => set('published', e.target.checked)}
          />
          <label htmlFor={publishedId} className="grid gap-0.5 text-sm">
            <span className="font-medium">Published</span>
            <span className="text-xs text-muted-foreground">
              Enrolled students see a published quiz on the course page and can take it.
            </span>
          </label>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : quiz ? 'Save quiz' : 'Create quiz'}
          </Button>
          {quiz && (
            <ConfirmDelete
              label={`Delete quiz “${quiz.title}”`}
              title={`Delete “${quiz.title}”?`}
              description="The quiz and every student’s attempts and scores on it are deleted. The bank’s questions stay. This cannot be undone."
              pending={remove.isPending}
              onConfirm={() =>
                remove
                  .mutateAsync({
                    userId: session.userId,
                    courseId: course.id,
                    assessmentId: quiz.id,
                  })
                  .then(() => {
                    toast.success(`Quiz “${quiz.title}” deleted.`);
                    void navigate(editorPaths.module(course.id, moduleId));
                  })
                  .catch((error: Error) => {
                    toast.error(`Could not delete the quiz: ${error.message}`);
                    throw error;
                  })
              }
            />
          )}
        </div>
      </form>
    </>
  );
}
