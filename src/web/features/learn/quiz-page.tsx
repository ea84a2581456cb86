/**
 * A module quiz: the questions (without answers), the learner's answers checked on the form,
 * then the submit-quiz function grades multiple choice and numeric by their key and short
 * answers with the answer evaluator, and the page shows the score and each question's verdict
 * with its reason and who graded it. A refusal (already submitted, closed, not enrolled) is
 * shown in the server's own words.
 */
import { useState, type FormEvent } from 'react';
import { CheckCircle2, CircleDot, Clock, Layers, XCircle } from 'lucide-react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { cn } from '@/lib/utils';
import {
  useQuiz,
  type Quiz,
  type QuizAttempt,
  type AnswerVerdict,
  type QuizQuestion,
  type Verdict,
} from './api/get-quiz';
import { useMakeQuestionCard } from './api/make-question-card';
import { useSubmitQuiz } from './api/submit-quiz';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { formatDateTime } from './learn-ui';
import { learnPaths } from './learn-paths';
import { parseQuizDraft, type QuizDraft } from './quiz-answers';

export function QuizPage() {
  const session = useAppSession();
  const { courseId = '', assessmentId = '' } = useRouteParams();
  const quiz = useQuiz(session.userId, courseId, assessmentId);
  const back = { to: learnPaths.course(courseId), label: 'Back to the course' };

  if (quiz.isPending) {
    return (
      <AppPage title="" back={back}>
        <LoadingBlock label="Loading the quiz…" />
      </AppPage>
    );
  }
  if (quiz.isError) {
    return (
      <AppPage title="Quiz" back={back}>
        <LoadError
          message={`Could not load the quiz: ${quiz.error.message}`}
          onRetry={() => void quiz.refetch()}
        />
      </AppPage>
    );
  }
  if (!quiz.data) {
    return (
      <AppPage title="Quiz not found" back={back}>
        <EmptyState>
          This quiz does not exist, is not published yet, or belongs to a course you are not
          enrolled in.
        </EmptyState>
      </AppPage>
    );
  }
  return <QuizView courseId={courseId} quiz={quiz.data} back={back} />;
}

function QuizView({
  courseId,
  quiz,
  back,
}: {
  courseId: string;
  quiz: Quiz;
  back: { to: string; label: string };
}) {
  const latest = quiz.attempts[0];
  const attemptsLeft = quiz.maxAttempts - quiz.attempts.length;
  const [retrying, setRetrying] = useState(false);
  // Read once when the quiz opens; the server decides at submission anyway.
  const [openedAt] = useState(() => Date.now());
  const closed = quiz.dueAt !== null && new Date(quiz.dueAt).getTime() < openedAt;
  const showForm = !latest || retrying;

  return (
    <AppPage
      title={quiz.title}
      back={back}
      intro={
        <>
          {quiz.questions.length} {quiz.questions.length === 1 ? 'question' : 'questions'}
          {quiz.dueAt && ` · ${closed ? 'closed' : 'due'} ${formatDateTime(quiz.dueAt)}`}
          {` · ${quiz.maxAttempts === 1 ? 'one attempt' : `${quiz.maxAttempts} attempts`}`}
        </>
      }
    >
      {quiz.instructions && <p className="leading-7">{quiz.instructions}</p>}
      {latest && !retrying && (
        <AttemptResult quiz={quiz} attempt={latest}>
          {attemptsLeft > 0 && !closed && (
            <Button variant="outline" onClick={() => setRetrying(true)}>
              Try again ({attemptsLeft} {attemptsLeft === 1 ? 'attempt' : 'attempts'} left)
            </Button>
          )}
        </AttemptResult>
      )}
      {showForm &&
        (quiz.questions.length === 0 ? (
          <EmptyState>
            This quiz has no questions yet. Your instructor is still writing it.
          </EmptyState>
        ) : (
          <QuizForm
            courseId={courseId}
            quiz={quiz}
            closed={closed}
            onSubmitted={() => setRetrying(false)}
          />
        ))}
    </AppPage>
  );
}

function QuizForm({
  courseId,
  quiz,
  closed,
  onSubmitted,
}: {
  courseId: string;
  quiz: Quiz;
  closed: boolean;
  onSubmitted: () => void;
}) {
  const session = useAppSession();
  const submit = useSubmitQuiz();
  const [draft, setDraft] = useState<QuizDraft>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [refusal, setRefusal] = useState<string | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setRefusal(null);
    const parsed = parseQuizDraft(quiz.questions, draft);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      const first = quiz.questions.find((q) => parsed.errors[q.id]);
      if (first) document.getElementById(`question-${first.id}-input`)?.focus();
      return;
    }
    setErrors({});
    submit.mutate(
      { userId: session.userId, courseId, assessmentId: quiz.id, answers: parsed.answers },
      {
        onSuccess: (attempt) => {
          toast.success(
            attempt.score !== null
              ? `Quiz submitted. Your score: ${attempt.score}%.`
              : 'Quiz submitted. Some answers await your instructor.',
          );
          onSubmitted();
        },
        onError: (error) => {
          setRefusal(error.message);
          toast.error(error.message);
        },
      },
    );
  }

  const errorCount = Object.keys(errors).length;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Quiz answers">
      {closed && (
        <Notice tone="info">This quiz has closed; the server will not accept new answers.</Notice>
      )}
      {errorCount > 0 && (
        <Notice tone="error">
          {errorCount === 1 ? 'One question needs' : `${errorCount} questions need`} an answer
          before you submit.
        </Notice>
      )}
      <ol className="grid gap-5">
        {quiz.questions.map((question, index) => (
          <li key={question.id}>
            <QuestionField
              question={question}
              number={index + 1}
              value={draft[question.id] ?? ''}
              error={errors[question.id]}
              onChange={(value) => setDraft((current) => ({ ...current, [question.id]: value }))}
            />
          </li>
        ))}
      </ol>
      {refusal && <Notice tone="error">{refusal}</Notice>}
      <Button type="submit" className="w-fit" disabled={submit.isPending}>
        {submit.isPending ? 'Submitting…' : 'Submit answers'}
      </Button>
    </form>
  );
}

function QuestionField({
  question,
  number,
  value,
  error,
  onChange,
}: {
  question: QuizQuestion;
  number: number;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const base = `question-${question.id}`;
  const errorId = `${base}-error`;
  const describedBy = error ? errorId : undefined;
  const errorText = error && (
    <p id={errorId} className="text-sm text-destructive">
      {error}
    </p>
  );
  const prompt = (
    <>
      <span className="text-muted-foreground">Question {number}. </span>
      <span className="whitespace-pre-line">{question.prompt}</span>
    </>
  );

  if (question.type === 'multiple_choice') {
    return (
      <fieldset
        className="grid gap-2 rounded-xl border bg-card p-4 shadow-sm"
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      >
        <legend className="float-left mb-2 w-full font-medium">{prompt}</legend>
        {(question.choices ?? []).map((choice, i) => (
          <label
            key={choice.id}
            className="flex cursor-pointer items-start gap-2 rounded-md p-2 hover:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
          >
            <input
              id={i === 0 ? `${base}-input` : undefined}
              type="radio"
              name={base}
              value={choice.id}
              checked={value === choice.id}
              onChange={() => onChange(choice.id)}
              className="mt-1 size-4 accent-primary"
            />
            <span>{choice.text}</span>
          </label>
        ))}
        {errorText}
      </fieldset>
    );
  }

  return (
    <div className="grid gap-2 rounded-xl border bg-card p-4 shadow-sm">
      <Label htmlFor={`${base}-input`} className="block text-base leading-6 font-medium">
        {prompt}
      </Label>
      {question.type === 'numeric' ? (
        <Input
          id={`${base}-input`}
          inputMode="decimal"
          autoComplete="off"
          className="max-w-48"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      ) : (
        <textarea
          id={`${base}-input`}
          rows={4}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className="w-full rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive md:text-sm"
        />
      )}
      {errorText}
    </div>
  );
}

const verdictText: Record<Verdict, string> = {
  correct: 'Correct',
  partially_correct: 'Partly correct',
  incorrect: 'Incorrect',
  pending: 'Awaiting your instructor',
};
const verdictIcons = {
  correct: CheckCircle2,
  partially_correct: CircleDot,
  incorrect: XCircle,
  pending: Clock,
};

/** Who judged a short answer, so a learner knows whether a person has looked at it. */
function gradedByText(verdict: AnswerVerdict): string | null {
  if (verdict.graded_by === 'instructor') return 'Graded by your instructor.';
  if (verdict.graded_by === 'evaluator' && verdict.evaluation) {
    return `Graded automatically (${verdict.evaluation.engine}); your instructor may review it.`;
  }
  return null;
}

function answerText(question: QuizQuestion, answer: QuizAttempt['answers'][string] | undefined) {
  if (!answer) return 'No answer';
  if (answer.choice !== undefined) {
    return question.choices?.find((c) => c.id === answer.choice)?.text ?? answer.choice;
  }
  if (answer.value !== undefined) return String(answer.value);
  return answer.text ?? 'No answer';
}

function AttemptResult({
  quiz,
  attempt,
  children,
}: {
  quiz: Quiz;
  attempt: QuizAttempt;
  children?: React.ReactNode;
}) {
  const pending = attempt.verdicts.filter((v) => v.verdict === 'pending').length;
  const correct = attempt.verdicts.filter((v) => v.verdict === 'correct').length;
  const partly = attempt.verdicts.filter((v) => v.verdict === 'partially_correct').length;
  return (
    <Section title="Your result" id="result">
      <div className="grid gap-4">
        <p className="text-2xl font-semibold" data-testid="quiz-score">
          {attempt.score !== null ? `Score: ${attempt.score}%` : 'Awaiting your instructor'}
        </p>
        <p className="text-sm text-muted-foreground">
          Attempt {attempt.attemptNumber}, submitted {formatDateTime(attempt.submittedAt)} ·{' '}
          {correct} of {attempt.verdicts.length} correct
          {partly > 0 && ` · ${partly} partly correct (half credit)`}
          {pending > 0 &&
            ` · ${pending} short ${pending === 1 ? 'answer awaits' : 'answers await'} your instructor`}
        </p>
        {attempt.feedback && (
          <Notice tone="info">
            <span className="font-medium">Your instructor: </span>
            {attempt.feedback}
          </Notice>
        )}
        <ol className="grid gap-3">
          {quiz.questions.map((question, index) => {
            const verdict = attempt.verdicts.find((v) => v.question_id === question.id);
            const kind = verdict?.verdict ?? 'incorrect';
            const Icon = verdictIcons[kind];
            return (
              <li key={question.id} className="rounded-lg border p-3">
                <p className="font-medium">
                  <span className="text-muted-foreground">Question {index + 1}. </span>
                  <span className="whitespace-pre-line">{question.prompt}</span>
                </p>
                <p className="mt-1 text-sm">
                  Your answer: {answerText(question, attempt.answers[question.id])}
                </p>
                <p
                  className={cn(
                    'mt-1 inline-flex items-center gap-1.5 text-sm font-medium',
                    kind === 'correct' && 'text-success',
                    kind === 'incorrect' && 'text-destructive',
                    (kind === 'pending' || kind === 'partially_correct') && 'text-warning',
                  )}
                >
                  <Icon aria-hidden="true" className="size-4" />
                  {verdictText[kind]}
                </p>
                {verdict?.feedback && (
                  <p className="mt-1 text-sm whitespace-pre-line">{verdict.feedback}</p>
                )}
                {verdict && gradedByText(verdict) && (
                  <p className="mt-1 text-xs text-muted-foreground">{gradedByText(verdict)}</p>
                )}
                <QuestionCardButton questionId={question.id} number={index + 1} />
              </li>
            );
          })}
        </ol>
        {children && <div>{children}</div>}
      </div>
    </Section>
  );
}

/** Makes a flashcard of the question; the server says when its answer may not be shown yet. */
function QuestionCardButton({ questionId, number }: { questionId: string; number: number }) {
  const { userId } = useAppSession();
  const makeCard = useMakeQuestionCard(userId);
  const navigate = useNavigate();
  return (
    <Button
      size="sm"
      variant="outline"
      className="mt-2"
      disabled={makeCard.isPending || makeCard.isSuccess}
      onClick={() =>
        makeCard.mutate(questionId, {
          onSuccess: () =>
            toast.success(`Question ${number} is a flashcard now.`, {
              action: {
                label: 'Open flashcards',
                onClick: () => void navigate('/app/flashcards'),
              },
            }),
          onError: (error) => toast.error(error.message),
        })
      }
    >
      <Layers aria-hidden="true" />
      {makeCard.isSuccess ? 'Flashcard made' : 'Make a flashcard'}
      <span className="sr-only"> of question {number}</span>
    </Button>
  );
}
