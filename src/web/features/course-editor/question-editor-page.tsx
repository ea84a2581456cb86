/**
 * A bank question's editor with every field of the bank: the question and its answer by type,
 * key points, ordered hints, a worked example, misconceptions with their feedback, difficulty,
 * and a prerequisite concept with a refresher and basic questions. Checked with zod first;
 * what the database still refuses shows under the field it concerns.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { LoadError, LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { useDeleteQuestion } from './api/delete-question';
import { useCourseOutline, type CourseOutline } from './api/get-course-outline';
import { useEditorQuestion, type EditorQuestion } from './api/get-question';
import { useSaveQuestion } from './api/save-question';
import { ConfirmDelete } from './confirm-delete';
import { CourseGate, Frame } from './course-gate';
import { Field, FormError, saveErrors, zodFieldErrors, type FieldErrors } from './editor-form';
import { editorPaths } from './editor-paths';
import { Missing } from './editor-ui';
import {
  AnswerFields,
  BasicQuestions,
  Group,
  MisconceptionList,
  TextList,
} from './question-fields';
import {
  difficultyLabels,
  draftOfQuestion,
  emptyQuestion,
  questionFromDraft,
  questionSchema,
  type QuestionDraft,
} from './question-schema';

export function NewQuestionPage() {
  const session = useAppSession();
  const { courseId = '', moduleId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  return (
    <CourseGate outline={outline} courseId={courseId}>
      {(course) =>
        course.modules.some((m) => m.id === moduleId) ? (
          <QuestionEditor course={course} moduleId={moduleId} question={null} />
        ) : (
          <Missing what="module" courseId={courseId} />
        )
      }
    </CourseGate>
  );
}

export function EditQuestionPage() {
  const session = useAppSession();
  const { courseId = '', questionId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);
  const question = useEditorQuestion(session.userId, courseId, questionId);
  return (
    <CourseGate outline={outline} courseId={courseId}>
      {(course) =>
        question.isPending ? (
          <Frame courseId={courseId} title="Edit question">
            <LoadingBlock label="Loading the question…" />
          </Frame>
        ) : question.isError ? (
          <Frame courseId={courseId} title="Edit question">
            <LoadError
              message={`Could not load the question: ${question.error.message}`}
              onRetry={() => void question.refetch()}
            />
          </Frame>
        ) : !question.data ? (
          <Missing what="question" courseId={courseId} />
        ) : (
          <QuestionEditor
            key={question.data.id}
            course={course}
            moduleId={question.data.moduleId}
            question={question.data}
          />
        )
      }
    </CourseGate>
  );
}

function QuestionEditor({
  course,
  moduleId,
  question,
}: {
  course: CourseOutline;
  moduleId: string;
  question: EditorQuestion | null;
}) {
  const session = useAppSession();
  const navigate = useNavigate();
  const save = useSaveQuestion();
  const remove = useDeleteQuestion();
  const [draft, setDraft] = useState<QuestionDraft>(() =>
    question ? draftOfQuestion(question.stored) : emptyQuestion(),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const module = course.modules.find((m) => m.id === moduleId);
  const bankPath = editorPaths.module(course.id, moduleId);

  function set<K extends keyof QuestionDraft>(key: K, value: QuestionDraft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = questionSchema.safeParse(questionFromDraft(draft));
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      toast.error('The question is not saved yet: some fields need attention.');
      return;
    }
    setErrors({});
    save.mutate(
      {
        userId: session.userId,
        courseId: course.id,
        moduleId,
        questionId: question?.id,
        question: parsed.data,
      },
      {
        onSuccess: ({ id }) => {
          toast.success(question ? 'Question saved.' : 'Question added to the bank.');
          if (!question) void navigate(editorPaths.question(course.id, id), { replace: true });
        },
        onError: (error) => {
          setErrors(saveErrors(error));
          toast.error(`Could not save the question: ${error.message}`);
        },
      },
    );
  }

  return (
    <Frame
      courseId={course.id}
      title={question ? 'Edit question' : 'New question'}
      back={{ to: bankPath, label: 'Questions and quizzes' }}
    >
      <p className="-mt-4 text-sm text-muted-foreground">
        {course.title} · module “{module?.title ?? ''}”
      </p>
      <form onSubmit={submit} noValidate className="grid max-w-3xl gap-5">
        <FormError errors={errors} />
        <Group legend="Question and answer" error={errors.answer}>
          <AnswerFields
            answer={draft}
            onChange={(a) => setDraft({ ...draft, ...a })}
            errors={errors}
          />
          <Field label="Difficulty" error={errors.difficulty} className="sm:max-w-60">
            {(props) => (
              <NativeSelect
                {...props}
                value={draft.difficulty}
                onChange={(e) => set('difficulty', e.target.value)}
              >
                {([1, 2, 3] as const).map((level) => (
                  <option key={level} value={String(level)}>
                    {level} · {difficultyLabels[level]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </Group>
        <TextList
          legend="Key points (2 to 5)"
          itemLabel="Key point"
          name="keyPoints"
          items={draft.keyPoints}
          onChange={(items) => set('keyPoints', items)}
          errors={errors}
          min={2}
          max={5}
          description="What a complete answer covers."
        />
        <TextList
          legend="Hints (2 to 4, least revealing first)"
          itemLabel="Hint"
          name="hints"
          items={draft.hints}
          onChange={(items) => set('hints', items)}
          errors={errors}
          min={2}
          max={4}
          ordered
          description="Given one at a time, in this order."
        />
        <Field
          label="Worked example"
          error={errors.workedExample}
          description="A similar problem solved step by step (Markdown)."
        >
          {(props) => (
            <Textarea
              {...props}
              rows={4}
              value={draft.workedExample}
              onChange={(e) => set('workedExample', e.target.value)}
            />
          )}
        </Field>
        <MisconceptionList
          items={draft.misconceptions}
          onChange={(items) => set('misconceptions', items)}
          errors={errors}
          choices={draft.type === 'multiple_choice' ? draft.choices : null}
        />
        <Group
          legend="Prerequisite"
          error={errors.prerequisite}
          description="The concept a student needs first, a short refresher, and basic questions to check it."
        >
          <Field label="Concept" error={errors['prerequisite.concept']}>
            {(props) => (
              <Input
                {...props}
                value={draft.concept}
                maxLength={200}
                onChange={(e) => set('concept', e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Refresher lesson"
            error={errors['prerequisite.refresher']}
            description="A few short paragraphs (Markdown)."
          >
            {(props) => (
              <Textarea
                {...props}
                rows={4}
                value={draft.refresher}
                onChange={(e) => set('refresher', e.target.value)}
              />
            )}
          </Field>
          <BasicQuestions
            items={draft.basics}
            onChange={(items) => set('basics', items)}
            errors={errors}
          />
        </Group>
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : question ? 'Save question' : 'Add to the bank'}
          </Button>
          {question && (
            <ConfirmDelete
              label="Delete this question"
              title="Delete this question?"
              description="It leaves the bank and every quiz that draws on it. Students’ past attempts keep their scores."
              pending={remove.isPending}
              onConfirm={() =>
                remove
                  .mutateAsync({
                    userId: session.userId,
                    courseId: course.id,
                    questionId: question.id,
                  })
                  .then(() => {
                    toast.success('Question deleted.');
                    void navigate(bankPath);
                  })
                  .catch((error: Error) => {
                    toast.error(`Could not delete the question: ${error.message}`);
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
