/**
 * The coach demo itself, loaded when the visitor asks for it (decision 0224): a sample
 * question, the visitor's answer, and the offline answer evaluator's verdict with the key
 * points made and missed, from the public `coach-demo` function. Nothing is stored.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { getClientConfig } from '@/lib/client-config';

interface DemoQuestion {
  id: string;
  course: string;
  prompt: string;
}

interface DemoResult {
  verdict: 'correct' | 'partially_correct' | 'incorrect';
  missing: string[];
  feedback: string;
  engine: { label: string };
}

const verdictText: Record<DemoResult['verdict'], string> = {
  correct: 'Correct',
  partially_correct: 'Partly correct',
  incorrect: 'Not yet',
};

async function callDemo<T>(init?: { answer: string; questionId: string }): Promise<T> {
  const config = await getClientConfig();
  const response = await fetch(`${config.apiUrl}/functions/v1/coach-demo`, {
    method: init ? 'POST' : 'GET',
    headers: {
      apikey: config.anonKey,
      ...(init ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(init
      ? { body: JSON.stringify({ question_id: init.questionId, answer: init.answer }) }
      : {}),
  });
  const body = (await response.json().catch(() => ({}))) as T & {
    error?: string;
    details?: string;
  };
  if (!response.ok) {
    throw new Error(body.details ?? body.error ?? `The demo answered HTTP ${response.status}.`);
  }
  return body;
}

export default function CoachDemo() {
  const id = useId();
  const [questions, setQuestions] = useState<DemoQuestion[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [questionId, setQuestionId] = useState('');
  const [answer, setAnswer] = useState('');
  const [result, setResult] = useState<DemoResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    callDemo<{ questions: DemoQuestion[] }>()
      .then((data) => {
        setQuestions(data.questions);
        setQuestionId(data.questions[0]?.id ?? '');
      })
      .catch((cause: unknown) =>
        setLoadError(cause instanceof Error ? cause.message : String(cause)),
      );
  }, []);

  if (loadError) {
    return (
      <p role="alert" className="mt-4 text-sm text-destructive">
        The demo could not load its sample questions: {loadError}
      </p>
    );
  }
  if (!questions)
    return <p className="mt-4 text-sm text-muted-foreground">Loading the sample questions…</p>;

  const question = questions.find((q) => q.id === questionId);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setResult(null);
    if (answer.trim() === '') {
      setError('Write an answer first.');
      return;
    }
    setChecking(true);
    try {
      setResult(await callDemo<DemoResult>({ questionId, answer }));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setChecking(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="mt-4 grid gap-4" noValidate>
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-question`} className="text-sm font-medium text-foreground">
          Sample question
        </label>
        <NativeSelect
          id={`${id}-question`}
          value={questionId}
          onChange={(event) => {
            setQuestionId(event.target.value);
            setResult(null);
          }}
        >
          {questions.map((q) => (
            <option key={q.id} value={q.id}>
              {q.course}: {q.prompt.replace(/\*\*/g, '').slice(0, 70)}
              {q.prompt.length > 70 ? '…' : ''}
            </option>
          ))}
        </NativeSelect>
      </div>
      {question && (
        <p className="rounded-lg bg-muted p-3 text-sm leading-relaxed whitespace-pre-line text-foreground">
          <span className="font-medium">
            Sample question from the sample course “{question.course}”:{' '}
          </span>
          {question.prompt.replace(/\*\*/g, '')}
        </p>
      )}
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-answer`} className="text-sm font-medium text-foreground">
          Your answer
        </label>
        <Textarea
          id={`${id}-answer`}
          rows={4}
          value={answer}
          onChange={(event) => setAnswer(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" className="w-fit" disabled={checking}>
        {checking ? 'Checking…' : 'Check my answer'}
      </Button>
      <div aria-live="polite" className="grid gap-2">
        {result && (
          <div className="rounded-lg border p-4 text-sm" data-testid="coach-demo-result">
            <p className="font-semibold text-foreground">{verdictText[result.verdict]}</p>
            <p className="mt-1 whitespace-pre-line text-foreground">{result.feedback}</p>
            <p className="mt-2 text-xs text-muted-foreground">
              Judged by the {result.engine.label.toLowerCase()}, as in the coach and in quizzes.
            </p>
          </div>
        )}
      </div>
    </form>
  );
}
