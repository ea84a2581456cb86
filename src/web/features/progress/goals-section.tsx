/** The learner's goals with their measured progress, a form to set one, and removal. */
import { useId, useState, type FormEvent } from 'react';
import { CheckCircle2, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { Notice } from '@/components/ui/notice';
import { useGoalOptions } from './api/get-goal-options';
import { useGoals, type Goal, type GoalKind } from './api/get-goals';
import { goalSchema, useCreateGoal, useDeleteGoal } from './api/save-goal';
import { goalKindLabels, goalMeasure } from './progress-texts';

export function GoalsSection({ userId }: { userId: string }) {
  const goals = useGoals(userId);
  return (
    <Section
      title="Goals"
      id="progress-goals"
      description="Progress is measured from your lessons, quizzes, flashcard reviews and study time. A goal that reaches 100 % earns 25 XP."
    >
      {goals.isPending ? (
        <LoadingBlock label="Loading your goals…" />
      ) : goals.isError ? (
        <LoadError
          message={`Could not load your goals: ${goals.error.message}`}
          onRetry={() => void goals.refetch()}
        />
      ) : goals.data.length === 0 ? (
        <EmptyState>
          No goals yet. Set one below, or your instructor may set one for you.
        </EmptyState>
      ) : (
        <ul className="grid gap-3">
          {goals.data.map((goal) => (
            <GoalItem key={goal.id} userId={userId} goal={goal} />
          ))}
        </ul>
      )}
      <NewGoalForm userId={userId} />
    </Section>
  );
}

function GoalItem({ userId, goal }: { userId: string; goal: Goal }) {
  const remove = useDeleteGoal(userId);
  const labelId = useId();
  const recurring = goal.kind === 'review_cards_daily' || goal.kind === 'study_minutes_weekly';
  const met = goal.percent >= 100;
  const overdue = !met && goal.dueOn !== null && goal.dueOn < new Date().toISOString().slice(0, 10);
  return (
    <li className="rounded-lg border p-3" data-testid="goal">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p id={labelId} className="font-medium">
            {goal.title}
          </p>
          <p className="text-sm text-muted-foreground">
            {goalKindLabels[goal.kind]}
            {goal.courseTitle ? ` · ${goal.courseTitle}` : ''}
            {goal.dueOn ? ` · by ${goal.dueOn}` : ''}
            {goal.setByMe ? '' : ' · set by your instructor'}
          </p>
        </div>
        {goal.setByMe && (
          <Button
            type="button"
            size="sm"
            variant="ghost"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(goal.id, {
                onSuccess: () => toast.success('Goal removed.'),
                onError: (error) => toast.error(error.message),
              })
            }
          >
            <Trash2 aria-hidden="true" />
            Remove<span className="sr-only"> {goal.title}</span>
          </Button>
        )}
      </div>
      <div className="mt-2 flex items-center gap-3">
        <div
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={goal.percent}
          className="h-2.5 flex-1 overflow-hidden rounded-full bg-muted"
        >
          <div
            className={`h-full rounded-full ${met ? 'bg-success' : 'bg-primary'}`}
            style={{ width: `${goal.percent}%` }}
          />
        </div>
        <span className="w-12 text-right text-sm font-medium tabular-nums">{goal.percent} %</span>
      </div>
      <p className="mt-1 flex items-center gap-1.5 text-sm text-muted-foreground">
        {met && <CheckCircle2 aria-hidden="true" className="size-4 text-success" />}
        {goalMeasure(goal.kind, goal.current, goal.target)}
        {met ? (recurring ? ' — met for this period.' : ' — goal met.') : ''}
        {overdue ? ' — the date has passed.' : ''}
      </p>
    </li>
  );
}

const creatableKinds: GoalKind[] = [
  'complete_module',
  'reach_score',
  'review_cards_daily',
  'study_minutes_weekly',
];

function NewGoalForm({ userId }: { userId: string }) {
  const options = useGoalOptions(userId);
  const create = useCreateGoal(userId);
  const [kind, setKind] = useState<GoalKind>('complete_module');
  const [courseId, setCourseId] = useState('');
  const [moduleId, setModuleId] = useState('');
  const [assessmentId, setAssessmentId] = useState('');
  const [amount, setAmount] = useState('');
  const [dueOn, setDueOn] = useState('');
  const [title, setTitle] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = {
    kind: useId(),
    course: useId(),
    target: useId(),
    amount: useId(),
    due: useId(),
    title: useId(),
  };
  const course = options.data?.find((c) => c.id === courseId);
  const needsCourse = kind === 'complete_module' || kind === 'reach_score';
  const dated = needsCourse;

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = goalSchema.safeParse({
      kind,
      courseId,
      moduleId,
      assessmentId,
      targetScore: amount,
      targetCount: amount,
      dueOn,
      title: title || defaultTitle(),
    });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form');
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('Goal set.');
        setTitle('');
        setAmount('');
        setDueOn('');
      },
    });
  }

  function defaultTitle(): string {
    switch (kind) {
      case 'complete_module':
        return `Finish ${course?.modules.find((m) => m.id === moduleId)?.title ?? 'the module'}`;
      case 'reach_score':
        return `Score ${amount || '…'} % on ${course?.quizzes.find((q) => q.id === assessmentId)?.title ?? 'the quiz'}`;
      case 'review_cards_daily':
        return `Review ${amount} cards a day`;
      default:
        return `Study ${amount} minutes a week`;
    }
  }

  const error = (key: string) =>
    errors[key] ? (
      <p id={`${key}-error`} className="text-sm text-destructive">
        {errors[key]}
      </p>
    ) : null;

  return (
    <form
      noValidate
      onSubmit={submit}
      className="mt-5 grid gap-4 border-t pt-4"
      aria-label="Set a goal"
    >
      <h3 className="font-medium">Set a goal</h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={ids.kind}>Kind of goal</Label>
          <NativeSelect
            id={ids.kind}
            value={kind}
            onChange={(e) => setKind(e.target.value as GoalKind)}
          >
            {creatableKinds.map((k) => (
              <option key={k} value={k}>
                {goalKindLabels[k]}
              </option>
            ))}
          </NativeSelect>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.course}>{needsCourse ? 'Course' : 'Course (optional)'}</Label>
          <NativeSelect
            id={ids.course}
            value={courseId}
            aria-invalid={errors.courseId ? true : undefined}
            aria-describedby={errors.courseId ? 'courseId-error' : undefined}
            onChange={(e) => {
              setCourseId(e.target.value);
              setModuleId('');
              setAssessmentId('');
            }}
          >
            <option value="">{needsCourse ? 'Choose a course' : 'All my study'}</option>
            {options.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </NativeSelect>
          {error('courseId')}
        </div>
        {kind === 'complete_module' && (
          <div className="grid gap-2">
            <Label htmlFor={ids.target}>Module</Label>
            <NativeSelect
              id={ids.target}
              value={moduleId}
              aria-invalid={errors.moduleId ? true : undefined}
              aria-describedby={errors.moduleId ? 'moduleId-error' : undefined}
              onChange={(e) => setModuleId(e.target.value)}
            >
              <option value="">Choose a module</option>
              {course?.modules.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.title}
                </option>
              ))}
            </NativeSelect>
            {error('moduleId')}
          </div>
        )}
        {kind === 'reach_score' && (
          <div className="grid gap-2">
            <Label htmlFor={ids.target}>Quiz</Label>
            <NativeSelect
              id={ids.target}
              value={assessmentId}
              aria-invalid={errors.assessmentId ? true : undefined}
              aria-describedby={errors.assessmentId ? 'assessmentId-error' : undefined}
              onChange={(e) => setAssessmentId(e.target.value)}
            >
              <option value="">Choose a quiz</option>
              {course?.quizzes.map((q) => (
                <option key={q.id} value={q.id}>
                  {q.title}
                </option>
              ))}
            </NativeSelect>
            {error('assessmentId')}
          </div>
        )}
        {kind !== 'complete_module' && (
          <div className="grid gap-2">
            <Label htmlFor={ids.amount}>
              {kind === 'reach_score'
                ? 'Score to reach (%)'
                : kind === 'review_cards_daily'
                  ? 'Cards a day'
                  : 'Minutes a week'}
            </Label>
            <Input
              id={ids.amount}
              inputMode="numeric"
              value={amount}
              aria-invalid={errors.targetScore || errors.targetCount ? true : undefined}
              aria-describedby={
                errors.targetScore
                  ? 'targetScore-error'
                  : errors.targetCount
                    ? 'targetCount-error'
                    : undefined
              }
              onChange={(e) => setAmount(e.target.value)}
            />
            {error('targetScore')}
            {error('targetCount')}
          </div>
        )}
        {dated && (
          <div className="grid gap-2">
            <Label htmlFor={ids.due}>By (optional)</Label>
            <Input
              id={ids.due}
              type="date"
              value={dueOn}
              onChange={(e) => setDueOn(e.target.value)}
            />
            {error('dueOn')}
          </div>
        )}
        <div className="grid gap-2 sm:col-span-2">
          <Label htmlFor={ids.title}>Name (optional)</Label>
          <Input
            id={ids.title}
            value={title}
            maxLength={200}
            placeholder={defaultTitle()}
            onChange={(e) => setTitle(e.target.value)}
          />
          {error('title')}
        </div>
      </div>
      {options.isError && (
        <Notice tone="error">Could not load your courses: {options.error.message}</Notice>
      )}
      {create.isError && <Notice tone="error">{create.error.message}</Notice>}
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Saving…' : 'Set goal'}
        </Button>
      </div>
    </form>
  );
}
