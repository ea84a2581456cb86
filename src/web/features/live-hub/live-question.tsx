/**
 * The instructor's live question (decision 0310): those who teach open a poll or a short
 * question to the room and close it when they choose; each learner answers once (the database
 * refuses a second answer); everyone sees the poll's tally, and those who teach read the short
 * answers. Results are figures the database counted, shown as text and as bars.
 */
import { useId, useState, type FormEvent } from 'react';
import { CircleStop, Megaphone, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import type { LiveQuestion, QuestionState } from './api/get-live-room';
import {
  questionSchema,
  shortAnswerSchema,
  useAnswer,
  useAskQuestion,
  useCloseQuestion,
} from './api/live-mutations';

export function LiveQuestionPanel({
  courseId,
  teaches,
  state,
  loading,
  error,
  onRetry,
}: {
  courseId: string;
  teaches: boolean;
  state: QuestionState | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
}) {
  const question = state?.question ?? null;
  return (
    <Section
      title="Live question"
      id="live-question"
      description={
        teaches
          ? 'Open a poll or a short question to the room; results come in as students answer, and the question closes when you say.'
          : 'When an instructor asks the room something, it appears here. You answer once.'
      }
    >
      {loading ? (
        <LoadingBlock label="Loading the question…" />
      ) : error ? (
        <LoadError message={`Could not load the question: ${error.message}`} onRetry={onRetry} />
      ) : (
        <div className="grid gap-5">
          {question ? (
            <QuestionView
              courseId={courseId}
              teaches={teaches}
              question={question}
              state={state!}
            />
          ) : (
            !teaches && <EmptyState>No question has been asked yet.</EmptyState>
          )}
          {teaches && (!question || question.status === 'closed') && (
            <AskForm courseId={courseId} />
          )}
        </div>
      )}
    </Section>
  );
}

function QuestionView({
  courseId,
  teaches,
  question,
  state,
}: {
  courseId: string;
  teaches: boolean;
  question: LiveQuestion;
  state: QuestionState;
}) {
  const session = useAppSession();
  const close = useCloseQuestion(session.userId, courseId);
  const mine = state.answers.find((a) => a.userId === session.userId);
  const open = question.status === 'open';
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={open ? 'default' : 'secondary'}>{open ? 'Open' : 'Closed'}</Badge>
        <span className="text-sm text-muted-foreground">
          {question.kind === 'poll' ? 'Poll' : 'Short question'} ·{' '}
          {question.answers === 1 ? '1 answer' : `${question.answers} answers`}
        </span>
      </div>
      <p className="text-lg font-medium break-words">{question.prompt}</p>
      {!teaches && open && !mine && <AnswerForm courseId={courseId} question={question} />}
      {mine && (
        <p className="text-sm">
          Your answer:{' '}
          <strong className="break-words">
            {mine.choice !== null ? question.choices[mine.choice] : mine.text}
          </strong>
        </p>
      )}
      {question.kind === 'poll' && (teaches || mine || !open) && (
        <PollResults question={question} />
      )}
      {teaches && question.kind === 'short' && (
        <div className="grid gap-2">
          <h3 className="font-medium">Answers</h3>
          {state.answers.length === 0 ? (
            <p className="text-sm text-muted-foreground">No answers yet.</p>
          ) : (
            <ul className="grid gap-2" aria-label="Short answers">
              {state.answers.map((a) => (
                <li key={a.id} className="rounded-md border p-2">
                  <span className="font-medium">{a.userName}</span>
                  <p className="break-words whitespace-pre-line">{a.text}</p>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {teaches && open && (
        <div>
          <Button
            variant="outline"
            disabled={close.isPending}
            onClick={() =>
              close.mutate(question.id, {
                onSuccess: () => toast.success('The question is closed.'),
                onError: (failure) => toast.error(failure.message),
              })
            }
          >
            <CircleStop aria-hidden="true" />
            {close.isPending ? 'Closing…' : 'Close the question'}
          </Button>
        </div>
      )}
    </div>
  );
}

function PollResults({ question }: { question: LiveQuestion }) {
  const total = question.answers;
  return (
    <ul className="grid gap-2" aria-label="Poll results">
      {question.choices.map((choice, index) => {
        const count = question.tally[index] ?? 0;
        const percent = total === 0 ? 0 : Math.round((count / total) * 100);
        return (
          <li key={index} className="grid gap-1">
            <div className="flex justify-between gap-2 text-sm">
              <span className="break-words">{choice}</span>
              <span className="shrink-0 tabular-nums">
                {count} ({percent}%)
              </span>
            </div>
            <div aria-hidden="true" className="h-2 rounded-full bg-muted">
              <div
                className="h-2 rounded-full bg-primary motion-safe:transition-[width]"
                style={{ width: `${percent}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function AnswerForm({ courseId, question }: { courseId: string; question: LiveQuestion }) {
  const session = useAppSession();
  const answer = useAnswer(session.userId, courseId);
  const [choice, setChoice] = useState<number | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (question.kind === 'poll') {
      if (choice === null) {
        setProblem('Choose one answer.');
        return;
      }
      setProblem(null);
      answer.mutate(
        { questionId: question.id, choice },
        { onError: (failure) => setProblem(failure.message) },
      );
      return;
    }
    const parsed = shortAnswerSchema.safeParse(text);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Check your answer.');
      return;
    }
    setProblem(null);
    answer.mutate(
      { questionId: question.id, text: parsed.data },
      { onError: (failure) => setProblem(failure.message) },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3">
      {question.kind === 'poll' ? (
        <fieldset className="grid gap-2" aria-describedby={problem ? `${id}-error` : undefined}>
          <legend className="sr-only">{question.prompt}</legend>
          {question.choices.map((label, index) => (
            <label key={index} className="flex items-start gap-2" htmlFor={`${id}-${index}`}>
              <input
                id={`${id}-${index}`}
                type="radio"
                name={id}
                className="mt-1 size-4 accent-primary"
                checked={choice === index}
                onChange={() => setChoice(index)}
              />
              <span className="break-words">{label}</span>
            </label>
          ))}
        </fieldset>
      ) : (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-text`}>Your answer</Label>
          <Textarea
            id={`${id}-text`}
            rows={2}
            maxLength={500}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-error` : undefined}
          />
        </div>
      )}
      {problem && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {problem}
        </p>
      )}
      <div>
        <Button type="submit" disabled={answer.isPending}>
          {answer.isPending ? 'Sending…' : 'Send my answer'}
        </Button>
      </div>
    </form>
  );
}

function AskForm({ courseId }: { courseId: string }) {
  const session = useAppSession();
  const ask = useAskQuestion(session.userId, courseId);
  const [kind, setKind] = useState<'poll' | 'short'>('poll');
  const [prompt, setPrompt] = useState('');
  const [choices, setChoices] = useState(['', '']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = questionSchema.safeParse(
      kind === 'poll' ? { kind, prompt, choices } : { kind, prompt },
    );
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    ask.mutate(parsed.data, {
      onSuccess: () => {
        toast.success('The question is open to the room.');
        setPrompt('');
        setChoices(['', '']);
      },
      onError: (failure) => setErrors({ form: failure.message }),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-3 rounded-md border p-3">
      <h3 className="font-medium">Ask the room</h3>
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1 text-sm font-medium">Kind</legend>
        {(
          [
            ['poll', 'Poll (choices)'],
            ['short', 'Short question (words)'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm" htmlFor={`${id}-${value}`}>
            <input
              id={`${id}-${value}`}
              type="radio"
              name={`${id}-kind`}
              className="size-4 accent-primary"
              checked={kind === value}
              onChange={() => setKind(value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-prompt`}>Question</Label>
        <Input
          id={`${id}-prompt`}
          value={prompt}
          maxLength={500}
          onChange={(event) => setPrompt(event.target.value)}
          aria-invalid={errors.prompt ? true : undefined}
          aria-describedby={errors.prompt ? `${id}-prompt-error` : undefined}
        />
        {errors.prompt && (
          <p id={`${id}-prompt-error`} className="text-sm text-destructive">
            {errors.prompt}
          </p>
        )}
      </div>
      {kind === 'poll' && (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">Choices (2 to 6)</legend>
          {choices.map((choice, index) => {
            const error = errors[`choices.${index}`];
            return (
              <div key={index} className="grid gap-1">
                <div className="flex gap-2">
                  <Label htmlFor={`${id}-choice-${index}`} className="sr-only">
                    Choice {index + 1}
                  </Label>
                  <Input
                    id={`${id}-choice-${index}`}
                    value={choice}
                    maxLength={200}
                    placeholder={`Choice ${index + 1}`}
                    onChange={(event) =>
                      setChoices(choices.map((c, i) => (i === index ? event.target.value : c)))
                    }
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-choice-${index}-error` : undefined}
                  />
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    disabled={choices.length <= 2}
                    onClick={() => setChoices(choices.filter((_, i) => i !== index))}
                  >
                    <Trash2 aria-hidden="true" />
                    <span className="sr-only">Remove choice {index + 1}</span>
                  </Button>
                </div>
                {error && (
                  <p id={`${id}-choice-${index}-error`} className="text-sm text-destructive">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={choices.length >= 6}
              onClick={() => setChoices([...choices, ''])}
            >
              <Plus aria-hidden="true" />
              Add a choice
            </Button>
          </div>
          {errors.choices && <p className="text-sm text-destructive">{errors.choices}</p>}
        </fieldset>
      )}
      {errors.form && <p className="text-sm text-destructive">{errors.form}</p>}
      <div>
        <Button type="submit" disabled={ask.isPending}>
          <Megaphone aria-hidden="true" />
          {ask.isPending ? 'Opening…' : 'Open to the room'}
        </Button>
      </div>
    </form>
  );
}
