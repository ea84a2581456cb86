/**
 * One attempt opened for grading: per question the prompt, the reference answer and key
 * points, the learner's answer and its verdict. Short answers awaiting a verdict get a choice
 * of correct, partly correct or incorrect; short answers the answer evaluator graded show its
 * verdict and reason, preselected, and the instructor may override them (decision 0223);
 * written feedback goes with the grade. The learner then sees the score and the feedback on
 * their quiz result.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { CheckCircle2, CircleDot, Clock, XCircle } from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { cn } from '@/lib/utils';
import {
  gradingSchema,
  useAttemptForGrading,
  useGradeAttempt,
  type AttemptForGrading,
  type GivenVerdict,
  type GradingQuestion,
  type Verdict,
} from './api/grading';
import { Field, Textarea, fieldErrors } from './teaching-fields';
import { formatDateTime, formatScore } from './teaching-format';
import { teachingPaths } from './teaching-paths';

const back = { to: teachingPaths.grading(), label: 'Back to the grading queue' };

export function GradeAttemptPage() {
  const session = useAppSession();
  const { attemptId = '' } = useRouteParams();
  const attempt = useAttemptForGrading(session.userId, attemptId);

  if (attempt.isPending) {
    return (
      <AppPage title="" back={back}>
        <LoadingBlock label="Loading the attempt…" />
      </AppPage>
    );
  }
  if (attempt.isError) {
    return (
      <AppPage title="Grade an attempt" back={back}>
        <LoadError
          message={`Could not open this attempt: ${attempt.error.message}`}
          onRetry={() => void attempt.refetch()}
        />
      </AppPage>
    );
  }
  return <GradeView attempt={attempt.data} />;
}

const verdictText: Record<Verdict, string> = {
  correct: 'Correct',
  partially_correct: 'Partly correct',
  incorrect: 'Incorrect',
  pending: 'Awaiting your verdict',
};
const verdictIcons = {
  correct: CheckCircle2,
  partially_correct: CircleDot,
  incorrect: XCircle,
  pending: Clock,
};
const givenVerdicts: GivenVerdict[] = ['correct', 'partially_correct', 'incorrect'];

/** Who gave a verdict that can no longer be changed here. */
function gradedByNote(question: GradingQuestion): string {
  if (question.gradedBy === 'instructor') return ' (your verdict)';
  if (question.type !== 'short_text' && question.verdict !== 'pending')
    return ' (graded on submission)';
  return '';
}

function answerText(question: GradingQuestion, answer: GradingQuestion['given']): string {
  if (!answer) return 'No answer';
  if (answer.choice !== undefined) {
    return question.choices?.find((c) => c.id === answer.choice)?.text ?? answer.choice;
  }
  if (answer.value !== undefined) return String(answer.value);
  return answer.text?.trim() ? answer.text : 'No answer';
}

function referenceText(question: GradingQuestion): string {
  const answer = question.answer;
  if (!answer) return '—';
  if (answer.choice !== undefined) return answerText(question, { choice: answer.choice });
  if (answer.value !== undefined) {
    return `${answer.value} ${answer.unit ?? ''} (± ${answer.tolerance ?? 0})`.trim();
  }
  return answer.text ?? '—';
}

function GradeView({ attempt }: { attempt: AttemptForGrading }) {
  const session = useAppSession();
  const navigate = useNavigate();
  const grade = useGradeAttempt();
  const pendingIds = attempt.questions.filter((q) => q.verdict === 'pending').map((q) => q.id);
  const evaluated = attempt.questions.filter((q) => q.gradedBy === 'evaluator' && q.evaluation);
  // The evaluator's verdicts start selected: saving unchanged confirms them.
  const [verdicts, setVerdicts] = useState<Record<string, GivenVerdict>>(() =>
    Object.fromEntries(evaluated.map((q) => [q.id, q.verdict as GivenVerdict])),
  );
  const [feedback, setFeedback] = useState(attempt.feedback ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const editable = pendingIds.length > 0 || evaluated.length > 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    setRefusal(null);
    // Pending answers and the evaluator's verdicts the instructor changed; the rest stand.
    const changed = Object.fromEntries(
      Object.entries(verdicts).filter(
        ([id, verdict]) =>
          pendingIds.includes(id) || evaluated.some((q) => q.id === id && q.verdict !== verdict),
      ),
    );
    const form = { verdicts: changed, feedback };
    const parsed = gradingSchema(pendingIds).safeParse(form);
    if (!parsed.success) {
      const found = fieldErrors(parsed.error.issues);
      setErrors(found);
      const first = pendingIds.find((id) => found[`verdicts.${id}`]);
      if (first) document.getElementById(`verdict-${first}-correct`)?.focus();
      return;
    }
    setErrors({});
    grade.mutate(
      { userId: session.userId, attemptId: attempt.id, pendingIds, form },
      {
        onSuccess: ({ score }) => {
          toast.success(
            score === null
              ? 'Grade saved.'
              : `Graded: ${attempt.learner.name} scored ${formatScore(score)}.`,
          );
          void navigate(teachingPaths.grading());
        },
        onError: (error) => {
          setRefusal(error.message);
          toast.error(`Could not save the grade: ${error.message}`);
        },
      },
    );
  }

  const missing = pendingIds.filter((id) => errors[`verdicts.${id}`]).length;
  return (
    <AppPage
      title={attempt.assessment.title}
      back={back}
      intro={
        <>
          {attempt.learner.name} ({attempt.learner.email}) · {attempt.course.title} · attempt{' '}
          {attempt.attemptNumber}, submitted {formatDateTime(attempt.submittedAt)}
        </>
      }
    >
      {attempt.status === 'graded' && (
        <Notice tone="info">
          This attempt has been graded: {formatScore(attempt.score)}.
          {attempt.feedback ? ` Your feedback: ${attempt.feedback}` : ''}
          {evaluated.length > 0 &&
            ' The answer evaluator graded its short answers: save to confirm its verdicts, or change them first.'}
        </Notice>
      )}
      <form onSubmit={submit} noValidate className="grid gap-5" aria-label="Grade this attempt">
        {missing > 0 && (
          <Notice tone="error">
            {missing === 1 ? 'One answer needs' : `${missing} answers need`} a verdict before you
            save the grade.
          </Notice>
        )}
        <ol className="grid gap-4">
          {attempt.questions.map((question, index) => (
            <li key={question.id}>
              <QuestionCard
                question={question}
                number={index + 1}
                value={verdicts[question.id]}
                error={errors[`verdicts.${question.id}`]}
                onChange={(value) =>
                  setVerdicts((current) => ({ ...current, [question.id]: value }))
                }
              />
            </li>
          ))}
        </ol>
        {editable && (
          <Section title="Feedback to the learner" id="feedback-heading">
            <Field
              label="Written feedback (optional)"
              error={errors.feedback}
              hint="Shown with the score on the learner's quiz result."
            >
              {(control) => (
                <Textarea
                  {...control}
                  rows={4}
                  value={feedback}
                  onChange={(e) => setFeedback(e.target.value)}
                />
              )}
            </Field>
          </Section>
        )}
        {refusal && <Notice tone="error">{refusal}</Notice>}
        {attempt.status !== 'graded' && !editable && (
          <EmptyState>Every answer of this attempt already has a verdict.</EmptyState>
        )}
        {editable && (
          <Button type="submit" className="w-fit" disabled={grade.isPending}>
            {grade.isPending
              ? 'Saving the grade…'
              : pendingIds.length > 0
                ? 'Save grade'
                : 'Save review'}
          </Button>
        )}
      </form>
    </AppPage>
  );
}

function QuestionCard({
  question,
  number,
  value,
  error,
  onChange,
}: {
  question: GradingQuestion;
  number: number;
  value: GivenVerdict | undefined;
  error?: string;
  onChange: (value: GivenVerdict) => void;
}) {
  const open =
    question.verdict === 'pending' || (question.gradedBy === 'evaluator' && !!question.evaluation);
  const Icon = verdictIcons[question.verdict];
  const errorId = `verdict-${question.id}-error`;
  return (
    <article
      aria-labelledby={`question-${question.id}`}
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm"
    >
      <h2 id={`question-${question.id}`} className="font-medium">
        <span className="text-muted-foreground">Question {number}. </span>
        <span className="whitespace-pre-line">
          {question.prompt ?? 'This question has been removed from the bank.'}
        </span>
      </h2>
      <dl className="grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium text-muted-foreground">Learner’s answer</dt>
        <dd className="whitespace-pre-line">{answerText(question, question.given)}</dd>
        <dt className="font-medium text-muted-foreground">Reference answer</dt>
        <dd className="whitespace-pre-line">{referenceText(question)}</dd>
        {question.keyPoints.length > 0 && (
          <>
            <dt className="font-medium text-muted-foreground">Key points</dt>
            <dd>
              <ul className="list-disc pl-5">
                {question.keyPoints.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      {question.evaluation && (
        <div className="grid gap-1 rounded-md bg-muted p-3 text-sm">
          <p>
            <span className="font-medium">
              Answer evaluator ({question.evaluation.engine}):{' '}
              {verdictText[question.evaluation.verdict]}.
            </span>{' '}
            <span className="whitespace-pre-line">{question.evaluation.feedback}</span>
          </p>
          {question.gradedBy === 'instructor' && (
            <p className="text-muted-foreground">You overrode this verdict.</p>
          )}
        </div>
      )}
      {open ? (
        <fieldset
          className="grid gap-2"
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
        >
          <legend className="mb-1 text-sm font-medium">
            {question.verdict === 'pending'
              ? `Your verdict on question ${number}`
              : `Verdict on question ${number} (the evaluator's is selected; change it to override)`}
          </legend>
          <div className="flex flex-wrap gap-2">
            {givenVerdicts.map((choice) => (
              <label
                key={choice}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  value === choice && 'border-primary bg-accent',
                )}
              >
                <input
                  id={`verdict-${question.id}-${choice}`}
                  type="radio"
                  name={`verdict-${question.id}`}
                  value={choice}
                  checked={value === choice}
                  onChange={() => onChange(choice)}
                  className="size-4 accent-primary"
                />
                {verdictText[choice]}
              </label>
            ))}
          </div>
          {error && (
            <p id={errorId} className="text-sm text-destructive">
              {error}
            </p>
          )}
        </fieldset>
      ) : (
        <p
          className={cn(
            'inline-flex items-center gap-1.5 text-sm font-medium',
            question.verdict === 'correct' && 'text-success',
            question.verdict === 'incorrect' && 'text-destructive',
            (question.verdict === 'pending' || question.verdict === 'partially_correct') &&
              'text-warning',
          )}
        >
          <Icon aria-hidden="true" className="size-4" />
          {verdictText[question.verdict]}
          {gradedByNote(question)}
        </p>
      )}
    </article>
  );
}
