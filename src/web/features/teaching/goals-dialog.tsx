/**
 * A learner's goals in this course, opened from their row of the progress table: the goals
 * set so far (removable) and a form for a new one — complete the course, complete a module,
 * or reach a score on a quiz, optionally by a date.
 */
import { useState, type FormEvent } from 'react';
import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import type { CourseOutline } from './api/get-course-outline';
import {
  goalSchema,
  useCreateGoal,
  useDeleteGoal,
  useLearnerGoals,
  type GoalForm,
  type GoalKind,
} from './api/goals';
import { Field, Select, Textarea, fieldErrors } from './teaching-fields';
import { formatDay } from './teaching-format';

type FormKind = Exclude<GoalKind, 'custom'>;

const kindLabels: Record<FormKind, string> = {
  complete_course: 'Complete the course',
  complete_module: 'Complete a module',
  reach_score: 'Reach a score on a quiz',
};

export function GoalsDialog({
  outline,
  learner,
  onClose,
}: {
  outline: CourseOutline;
  learner: { id: string; name: string };
  onClose: () => void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Goals for {learner.name}</DialogTitle>
          <DialogDescription>
            In {outline.title}: what this learner should reach, and by when.
          </DialogDescription>
        </DialogHeader>
        <GoalList courseId={outline.id} learnerId={learner.id} />
        <NewGoalForm outline={outline} learnerId={learner.id} />
      </DialogContent>
    </Dialog>
  );
}

function GoalList({ courseId, learnerId }: { courseId: string; learnerId: string }) {
  const session = useAppSession();
  const goals = useLearnerGoals(session.userId, courseId, learnerId);
  const remove = useDeleteGoal();

  if (goals.isPending) return <LoadingBlock label="Loading goals…" />;
  if (goals.isError) {
    return (
      <LoadError
        message={`Could not load the goals: ${goals.error.message}`}
        onRetry={() => void goals.refetch()}
      />
    );
  }
  if (goals.data.length === 0) {
    return <EmptyState>No goal in this course yet. Set the first one below.</EmptyState>;
  }
  return (
    <section aria-label="Current goals">
      <ul className="grid gap-2">
        {goals.data.map((goal) => (
          <li
            key={goal.id}
            className="flex items-start justify-between gap-3 rounded-lg border p-3 text-sm"
          >
            <div className="min-w-0">
              <p className="font-medium">{goal.title}</p>
              <p className="text-muted-foreground">
                {goal.dueOn ? `By ${formatDay(goal.dueOn)}` : 'No date'}
                {goal.setBy === learnerId ? ' · set by the learner' : ''}
                {goal.achievedAt ? ' · achieved' : ''}
              </p>
              {goal.note && <p className="mt-1 whitespace-pre-line">{goal.note}</p>}
            </div>
            <Button
              size="sm"
              variant="outline"
              disabled={remove.isPending && remove.variables?.id === goal.id}
              onClick={() =>
                remove.mutate(
                  { userId: session.userId, courseId, learnerId, id: goal.id },
                  {
                    onSuccess: () => toast.success('Goal removed.'),
                    onError: (error) => toast.error(`Could not remove the goal: ${error.message}`),
                  },
                )
              }
            >
              <Trash2 aria-hidden="true" />
              {remove.isPending && remove.variables?.id === goal.id ? 'Removing…' : 'Remove'}
              <span className="sr-only"> the goal “{goal.title}”</span>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The goal's title as the learner will read it. */
function goalTitle(outline: CourseOutline, form: GoalForm): string {
  if (form.kind === 'complete_module') {
    const module = outline.modules.find((m) => m.id === form.moduleId);
    return `Complete the module “${module?.title ?? ''}”`;
  }
  if (form.kind === 'reach_score') {
    const quiz = outline.quizzes.find((q) => q.id === form.assessmentId);
    return `Reach ${Number(form.targetScore)}% on “${quiz?.title ?? ''}”`;
  }
  return `Complete ${outline.title}`;
}

function NewGoalForm({ outline, learnerId }: { outline: CourseOutline; learnerId: string }) {
  const session = useAppSession();
  const create = useCreateGoal();
  const [kind, setKind] = useState<FormKind>('complete_course');
  const [moduleId, setModuleId] = useState('');
  const [assessmentId, setAssessmentId] = useState('');
  const [targetScore, setTargetScore] = useState('');
  const [dueOn, setDueOn] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    const form: GoalForm =
      kind === 'complete_module'
        ? { kind, moduleId, dueOn, note }
        : kind === 'reach_score'
          ? { kind, assessmentId, targetScore, dueOn, note }
          : { kind, dueOn, note };
    const parsed = goalSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    create.mutate(
      {
        userId: session.userId,
        courseId: outline.id,
        learnerId,
        form,
        title: goalTitle(outline, form),
      },
      {
        onSuccess: () => {
          toast.success('Goal set.');
          setModuleId('');
          setAssessmentId('');
          setTargetScore('');
          setDueOn('');
          setNote('');
        },
        onError: (error) => {
          setRefusal(error.message);
          toast.error(`Could not set the goal: ${error.message}`);
        },
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="new-goal-heading"
      className="grid gap-3 border-t pt-4"
    >
      <h3 id="new-goal-heading" className="font-semibold">
        New goal
      </h3>
      <Field label="Goal">
        {(control) => (
          <Select
            {...control}
            value={kind}
            onChange={(event) => setKind(event.target.value as FormKind)}
          >
            {(Object.keys(kindLabels) as FormKind[]).map((value) => (
              <option key={value} value={value}>
                {kindLabels[value]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {kind === 'complete_module' && (
        <Field label="Module" error={errors.moduleId}>
          {(control) => (
            <Select {...control} value={moduleId} onChange={(e) => setModuleId(e.target.value)}>
              <option value="">Choose a module</option>
              {outline.modules.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.position}. {m.title}
                </option>
              ))}
            </Select>
          )}
        </Field>
      )}
      {kind === 'reach_score' && (
        <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
          <Field label="Quiz" error={errors.assessmentId}>
            {(control) => (
              <Select
                {...control}
                value={assessmentId}
                onChange={(e) => setAssessmentId(e.target.value)}
              >
                <option value="">Choose a quiz</option>
                {outline.quizzes.map((q) => (
                  <option key={q.id} value={q.id}>
                    {q.title}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Score (%)" error={errors.targetScore}>
            {(control) => (
              <Input
                {...control}
                inputMode="decimal"
                value={targetScore}
                onChange={(e) => setTargetScore(e.target.value)}
              />
            )}
          </Field>
        </div>
      )}
      <Field label="By (optional)" error={errors.dueOn}>
        {(control) => (
          <Input
            {...control}
            type="date"
            className="w-48"
            value={dueOn}
            onChange={(e) => setDueOn(e.target.value)}
          />
        )}
      </Field>
      <Field label="Note to the learner (optional)" error={errors.note}>
        {(control) => (
          <Textarea {...control} rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
        )}
      </Field>
      {refusal && <Notice tone="error">{refusal}</Notice>}
      <Button type="submit" className="w-fit" disabled={create.isPending}>
        {create.isPending ? 'Setting…' : 'Set goal'}
      </Button>
    </form>
  );
}
