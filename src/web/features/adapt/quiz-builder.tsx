/**
 * The quiz builder on a finished job's review screen (decision 0517): the generated quiz, or
 * the reviewer's saved edit of it, as a list whose questions can be edited, moved up and down
 * with buttons (keyboard first; focus follows the moved question), added and deleted; every
 * change saves the whole quiz over the version read. Each question has a grade preview: type
 * or choose an answer and see the verdict the learning app would give once published.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { CLOZE_GAP, type LessonSection, type QuizQuestion } from '@common/adapt-lesson';
import {
  QUIZ_KIND_LABELS,
  QUIZ_KINDS,
  QUIZ_LIMITS,
  asSentence,
  quizQuestionProblems,
  type QuizGradePreview,
  type QuizKind,
  type QuizProblem,
} from '@common/adapt-quiz';
import { Section } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field, SelectField } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import type { AdaptJobDetail } from './api/adapt-jobs';
import { usePreviewGrade, useSaveQuiz } from './api/adapt-quiz';

const OPTION_IDS = ['a', 'b', 'c', 'd', 'e'];

/** What the question asks, as the list shows it. */
function stemOf(question: QuizQuestion): string {
  return question.kind === 'cloze' ? question.text : question.prompt;
}

export function QuizBuilder({
  job,
  generated,
  sections,
}: {
  job: AdaptJobDetail;
  generated: QuizQuestion[];
  sections: LessonSection[];
}) {
  const saved = job.adapt_quiz_reviews;
  const questions = saved?.questions ?? generated;
  const version = saved?.version ?? 0;
  const editable = job.approved_at === null;
  const save = useSaveQuiz(job.id);
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusRequest = useRef<string[] | null>(null);
  const [, setFocusTick] = useState(0);
  const requestFocus = (ids: string[]) => {
    focusRequest.current = ids;
    setFocusTick((n) => n + 1);
  };

  // After a change the list re-renders in its new order: focus moves to the control asked for
  // (the first of the ids that exists and is enabled), so keyboard users stay where they were.
  useEffect(() => {
    const wanted = focusRequest.current;
    if (!wanted) return;
    for (const id of wanted) {
      const element = document.getElementById(id) as HTMLButtonElement | null;
      if (element && !element.disabled) {
        element.focus();
        focusRequest.current = null;
        return;
      }
    }
  });

  function saveQuiz(next: QuizQuestion[], done: { message: string; focus: string[] }) {
    save.mutate(
      { version, questions: next },
      {
        onSuccess: () => {
          requestFocus(done.focus);
          setAnnouncement(done.message);
          setEditing(null);
          setAdding(false);
          setConfirmDelete(null);
        },
        onError: (error) => toast.error(error.message),
      },
    );
  }

  function move(index: number, by: -1 | 1) {
    if (save.isPending) return;
    const target = index + by;
    const next = [...questions];
    const [moved] = next.splice(index, 1);
    next.splice(target, 0, moved!);
    const direction = by < 0 ? 'up' : 'down';
    const other = by < 0 ? 'down' : 'up';
    saveQuiz(next, {
      message: `Question moved to position ${target + 1} of ${next.length}.`,
      focus: [`quiz-${moved!.id}-${direction}`, `quiz-${moved!.id}-${other}`],
    });
  }

  function remove(index: number) {
    const next = questions.filter((_, i) => i !== index);
    const neighbour = next[Math.min(index, next.length - 1)];
    saveQuiz(next, {
      message: `Question ${index + 1} deleted; the quiz has ${next.length} questions.`,
      focus: neighbour ? [`quiz-${neighbour.id}-edit`] : ['quiz-add'],
    });
  }

  const counts = QUIZ_KINDS.map(
    (kind) =>
      `${questions.filter((q) => q.kind === kind).length} ${QUIZ_KIND_LABELS[kind].toLowerCase()}`,
  ).join(', ');

  return (
    <Section
      title="Quiz"
      id="quiz"
      description={
        <>
          {questions.length} questions ({counts}).{' '}
          {saved
            ? `Edited by a reviewer (version ${saved.version}).`
            : 'As the pipeline generated it.'}{' '}
          {editable
            ? 'Edit, move, add or delete questions; every change is saved at once. Preview how an answer would be graded.'
            : 'The job is approved, so the quiz no longer changes; its grade previews still work.'}
        </>
      }
    >
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <ol className="grid gap-4" aria-label="Quiz questions">
        {questions.map((question, index) => (
          <li
            key={question.id}
            className="rounded-md border p-3"
            aria-label={`Question ${index + 1}`}
            data-question={question.id}
          >
            {editing === question.id ? (
              <QuestionEditor
                initial={question}
                number={index + 1}
                sections={sections}
                saving={save.isPending}
                onCancel={() => {
                  requestFocus([`quiz-${question.id}-edit`]);
                  setEditing(null);
                }}
                onSave={(edited) =>
                  saveQuiz(
                    questions.map((q, i) => (i === index ? edited : q)),
                    {
                      message: `Question ${index + 1} saved.`,
                      focus: [`quiz-${edited.id}-edit`],
                    },
                  )
                }
              />
            ) : (
              <>
                <QuestionView question={question} number={index + 1} />
                {editable && (
                  <div className="mt-3 flex flex-wrap gap-2">
                    <Button
                      id={`quiz-${question.id}-up`}
                      size="sm"
                      variant="outline"
                      disabled={index === 0}
                      aria-disabled={save.isPending || undefined}
                      aria-label={`Move question ${index + 1} up`}
                      onClick={() => move(index, -1)}
                    >
                      <ArrowUp aria-hidden="true" />
                      Move up
                    </Button>
                    <Button
                      id={`quiz-${question.id}-down`}
                      size="sm"
                      variant="outline"
                      disabled={index === questions.length - 1}
                      aria-disabled={save.isPending || undefined}
                      aria-label={`Move question ${index + 1} down`}
                      onClick={() => move(index, 1)}
                    >
                      <ArrowDown aria-hidden="true" />
                      Move down
                    </Button>
                    <Button
                      id={`quiz-${question.id}-edit`}
                      size="sm"
                      variant="outline"
                      aria-label={`Edit question ${index + 1}`}
                      onClick={() => {
                        setAdding(false);
                        setEditing(question.id);
                      }}
                    >
                      <Pencil aria-hidden="true" />
                      Edit
                    </Button>
                    {confirmDelete === question.id ? (
                      <span className="flex flex-wrap items-center gap-2 text-sm">
                        Delete question {index + 1}?
                        <Button
                          size="sm"
                          variant="destructive"
                          disabled={save.isPending}
                          onClick={() => remove(index)}
                        >
                          Delete
                        </Button>
                        <Button
                          id={`quiz-${question.id}-keep`}
                          size="sm"
                          variant="outline"
                          onClick={() => {
                            requestFocus([`quiz-${question.id}-delete`]);
                            setConfirmDelete(null);
                          }}
                        >
                          Keep it
                        </Button>
                      </span>
                    ) : (
                      <Button
                        id={`quiz-${question.id}-delete`}
                        size="sm"
                        variant="outline"
                        aria-label={`Delete question ${index + 1}`}
                        disabled={questions.length === 1}
                        title={
                          questions.length === 1
                            ? 'A quiz needs at least one question: add another first.'
                            : undefined
                        }
                        onClick={() => {
                          requestFocus([`quiz-${question.id}-keep`]);
                          setConfirmDelete(question.id);
                        }}
                      >
                        <Trash2 aria-hidden="true" />
                        Delete
                      </Button>
                    )}
                  </div>
                )}
                <GradePreview jobId={job.id} question={question} number={index + 1} />
              </>
            )}
          </li>
        ))}
      </ol>
      {editable &&
        (adding ? (
          <div className="mt-4 rounded-md border p-3">
            <QuestionEditor
              initial={newQuestion(questions)}
              number={questions.length + 1}
              isNew
              sections={sections}
              saving={save.isPending}
              onCancel={() => {
                requestFocus(['quiz-add']);
                setAdding(false);
              }}
              onSave={(added) =>
                saveQuiz([...questions, added], {
                  message: `Question ${questions.length + 1} added.`,
                  focus: [`quiz-${added.id}-edit`],
                })
              }
            />
          </div>
        ) : (
          <Button
            id="quiz-add"
            className="mt-4"
            variant="outline"
            disabled={questions.length >= QUIZ_LIMITS.questions}
            onClick={() => {
              setEditing(null);
              setAdding(true);
            }}
          >
            <Plus aria-hidden="true" />
            Add a question
          </Button>
        ))}
    </Section>
  );
}

function QuestionView({ question, number }: { question: QuizQuestion; number: number }) {
  return (
    <div className="grid gap-2 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold">Question {number}</h3>
        <Badge variant="secondary">{QUIZ_KIND_LABELS[question.kind]}</Badge>
      </div>
      <p>{stemOf(question)}</p>
      {question.kind === 'multiple_choice' && (
        <ul className="grid gap-1" aria-label="Options">
          {question.choices.map((choice) => (
            <li key={choice.id} className="flex gap-2">
              <span aria-hidden="true">{choice.id === question.answer ? '✓' : '•'}</span>
              <span>
                {choice.text}
                {choice.id === question.answer && <strong> (correct)</strong>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {question.kind === 'cloze' && (
        <p>
          <span className="text-muted-foreground">The gap: </span>
          {question.answer}
        </p>
      )}
      {question.kind === 'short_answer' && (
        <p>
          <span className="text-muted-foreground">Reference answer: </span>
          {question.referenceAnswer}
        </p>
      )}
      {question.keyPoints.length > 0 && (
        <p>
          <span className="text-muted-foreground">Key points: </span>
          {question.keyPoints.join('; ')}
        </p>
      )}
      {question.explanation && (
        <p>
          <span className="text-muted-foreground">Explanation: </span>
          {question.explanation}
        </p>
      )}
    </div>
  );
}

// ----- Editing ---------------------------------------------------------------------------

/** Every kind's fields at once, so switching the kind keeps what was typed. */
interface Draft {
  id: string;
  kind: QuizKind;
  sectionId: string | null;
  difficulty: 1 | 2 | 3;
  stem: string;
  choices: Array<{ id: string; text: string }>;
  correct: string;
  gap: string;
  reference: string;
  keyPoints: string;
  explanation: string;
}

function draftOf(question: QuizQuestion): Draft {
  const choices =
    question.kind === 'multiple_choice'
      ? question.choices.map((c) => ({ ...c }))
      : OPTION_IDS.slice(0, 3).map((id) => ({ id, text: '' }));
  return {
    id: question.id,
    kind: question.kind,
    sectionId: question.sectionId,
    difficulty: question.difficulty,
    stem: stemOf(question),
    choices,
    correct: question.kind === 'multiple_choice' ? question.answer : '',
    gap: question.kind === 'cloze' ? question.answer : '',
    reference: question.kind === 'short_answer' ? question.referenceAnswer : '',
    keyPoints: question.keyPoints.join('\n'),
    explanation: question.explanation ?? '',
  };
}

function questionOf(draft: Draft): QuizQuestion {
  const common = {
    id: draft.id,
    sectionId: draft.sectionId,
    difficulty: draft.difficulty,
    keyPoints: draft.keyPoints.split('\n'),
    ...(draft.explanation.trim() ? { explanation: draft.explanation } : {}),
  };
  switch (draft.kind) {
    case 'multiple_choice':
      return {
        ...common,
        kind: 'multiple_choice',
        prompt: draft.stem,
        choices: draft.choices,
        answer: draft.correct,
      };
    case 'cloze':
      return { ...common, kind: 'cloze', text: draft.stem, answer: draft.gap };
    case 'short_answer':
      return {
        ...common,
        kind: 'short_answer',
        prompt: draft.stem,
        referenceAnswer: draft.reference,
      };
  }
}

/** The trimmed question the server will store (blank key points dropped). */
function tidied(question: QuizQuestion): QuizQuestion {
  const { explanation, ...rest } = question;
  const base = {
    ...rest,
    keyPoints: question.keyPoints.map((p) => p.trim()).filter((p) => p !== ''),
    ...(explanation?.trim() ? { explanation: explanation.trim() } : {}),
  };
  if (base.kind === 'multiple_choice') {
    return {
      ...base,
      prompt: base.prompt.trim(),
      choices: base.choices.map((c) => ({ id: c.id, text: c.text.trim() })),
    };
  }
  if (base.kind === 'cloze') return { ...base, text: base.text.trim(), answer: base.answer.trim() };
  return { ...base, prompt: base.prompt.trim(), referenceAnswer: base.referenceAnswer.trim() };
}

function newQuestion(existing: QuizQuestion[]): QuizQuestion {
  let n = existing.length + 1;
  while (existing.some((q) => q.id === `question-${n}`)) n++;
  return {
    kind: 'multiple_choice',
    id: `question-${n}`,
    sectionId: null,
    prompt: '',
    choices: OPTION_IDS.slice(0, 3).map((id) => ({ id, text: '' })),
    answer: '',
    keyPoints: [],
    difficulty: 2,
  };
}

function QuestionEditor({
  initial,
  number,
  isNew = false,
  sections,
  saving,
  onSave,
  onCancel,
}: {
  initial: QuizQuestion;
  number: number;
  isNew?: boolean;
  sections: LessonSection[];
  saving: boolean;
  onSave: (question: QuizQuestion) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [problems, setProblems] = useState<QuizProblem[]>([]);
  const uid = useId();
  const summaryRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Opening the editor moves focus into it (its first control, the question type).
  useEffect(() => formRef.current?.querySelector('select')?.focus(), []);
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const errorOf = (field: QuizProblem['field']) =>
    problems
      .filter((p) => p.field === field)
      .map((p) => asSentence(p.message))
      .join(' ') || undefined;
  const stemField = draft.kind === 'cloze' ? 'text' : 'prompt';

  return (
    <form
      ref={formRef}
      className="grid gap-4"
      aria-label={isNew ? 'New question' : `Edit question ${number}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const question = questionOf(draft);
        const found = quizQuestionProblems(question);
        setProblems(found);
        if (found.length > 0) {
          // The summary is an alert; move there too, so the reviewer reads what to fix.
          requestAnimationFrame(() => summaryRef.current?.focus());
          return;
        }
        onSave(tidied(question));
      }}
    >
      <h3 className="font-semibold">
        {isNew ? `New question (${number})` : `Editing question ${number}`}
      </h3>
      {problems.length > 0 && (
        <div ref={summaryRef} tabIndex={-1} className="outline-none">
          <Notice tone="error">
            <span>
              This question cannot be saved yet:{' '}
              {problems.map((p) => asSentence(p.message)).join(' ')}
            </span>
          </Notice>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          label="Question type"
          value={draft.kind}
          onChange={(e) => set({ kind: e.target.value as QuizKind })}
        >
          {QUIZ_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {QUIZ_KIND_LABELS[kind]}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Section it checks"
          value={draft.sectionId ?? ''}
          onChange={(e) => set({ sectionId: e.target.value === '' ? null : e.target.value })}
        >
          <option value="">The whole lesson</option>
          {sections.map((s) => (
            <option key={s.id} value={s.id}>
              {s.heading}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Difficulty"
          value={String(draft.difficulty)}
          onChange={(e) => set({ difficulty: Number(e.target.value) as 1 | 2 | 3 })}
        >
          <option value="1">1 · recall</option>
          <option value="2">2 · understand</option>
          <option value="3">3 · apply</option>
        </SelectField>
      </div>
      <TextField
        id={`${uid}-stem`}
        label={draft.kind === 'cloze' ? 'Sentence with a gap' : 'Question'}
        hint={
          draft.kind === 'cloze'
            ? `Write ${CLOZE_GAP} (four underscores) where the gap is.`
            : `At most ${QUIZ_LIMITS.stem} characters.`
        }
        error={errorOf(stemField)}
        value={draft.stem}
        rows={2}
        onChange={(stem) => set({ stem })}
      />
      {draft.kind === 'multiple_choice' && (
        <OptionsEditor
          uid={uid}
          draft={draft}
          set={set}
          error={errorOf('choices')}
          answerError={errorOf('answer')}
        />
      )}
      {draft.kind === 'cloze' && (
        <Field
          label="The word for the gap"
          value={draft.gap}
          error={errorOf('answer')}
          onChange={(e) => set({ gap: e.target.value })}
        />
      )}
      {draft.kind === 'short_answer' && (
        <TextField
          id={`${uid}-reference`}
          label="Reference answer"
          hint="What a complete answer says; the evaluator compares answers with it."
          error={errorOf('referenceAnswer')}
          value={draft.reference}
          rows={3}
          onChange={(reference) => set({ reference })}
        />
      )}
      <TextField
        id={`${uid}-points`}
        label={draft.kind === 'short_answer' ? 'Key points' : 'Key points (optional)'}
        hint={`One per line, at most ${QUIZ_LIMITS.keyPoints}: the facts a full answer states, which the evaluator looks for.`}
        error={errorOf('keyPoints')}
        value={draft.keyPoints}
        rows={3}
        onChange={(keyPoints) => set({ keyPoints })}
      />
      <TextField
        id={`${uid}-explanation`}
        label="Explanation (optional)"
        hint="Why the answer is right; learners read it after answering."
        error={errorOf('explanation')}
        value={draft.explanation}
        rows={2}
        onChange={(explanation) => set({ explanation })}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={saving}>
          Save question
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function OptionsEditor({
  uid,
  draft,
  set,
  error,
  answerError,
}: {
  uid: string;
  draft: Draft;
  set: (change: Partial<Draft>) => void;
  error?: string;
  answerError?: string;
}) {
  const errorId = `${uid}-options-error`;
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error || answerError ? errorId : undefined}
      aria-invalid={error || answerError ? true : undefined}
    >
      <legend className="mb-1 text-sm font-medium">
        Options ({QUIZ_LIMITS.minOptions} to {QUIZ_LIMITS.maxOptions}); mark the correct one
      </legend>
      {draft.choices.map((choice, i) => (
        <div key={choice.id} className="flex flex-wrap items-center gap-2">
          <input
            type="radio"
            id={`${uid}-correct-${choice.id}`}
            name={`${uid}-correct`}
            className="size-4 accent-primary"
            checked={draft.correct === choice.id}
            onChange={() => set({ correct: choice.id })}
          />
          <Label htmlFor={`${uid}-correct-${choice.id}`} className="sr-only">
            Option {i + 1} is correct
          </Label>
          <Label htmlFor={`${uid}-option-${choice.id}`} className="w-20 shrink-0">
            Option {i + 1}
          </Label>
          <input
            id={`${uid}-option-${choice.id}`}
            className="h-9 min-w-0 flex-1 rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            value={choice.text}
            onChange={(e) =>
              set({
                choices: draft.choices.map((c) =>
                  c.id === choice.id ? { ...c, text: e.target.value } : c,
                ),
              })
            }
          />
          <Button
            type="button"
            size="sm"
            variant="ghost"
            aria-label={`Remove option ${i + 1}`}
            disabled={draft.choices.length <= QUIZ_LIMITS.minOptions}
            onClick={() =>
              set({
                choices: draft.choices.filter((c) => c.id !== choice.id),
                correct: draft.correct === choice.id ? '' : draft.correct,
              })
            }
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      ))}
      <div>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={draft.choices.length >= QUIZ_LIMITS.maxOptions}
          onClick={() => {
            const id = OPTION_IDS.find((o) => !draft.choices.some((c) => c.id === o))!;
            set({ choices: [...draft.choices, { id, text: '' }] });
          }}
        >
          <Plus aria-hidden="true" />
          Add an option
        </Button>
      </div>
      {(error || answerError) && (
        <p id={errorId} className="text-sm text-destructive">
          {[error, answerError].filter(Boolean).join(' ')}
        </p>
      )}
    </fieldset>
  );
}

function TextField({
  id,
  label,
  hint,
  error,
  value,
  rows,
  onChange,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  value: string;
  rows: number;
  onChange: (value: string) => void;
}) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        rows={rows}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

// ----- Grade preview -----------------------------------------------------------------------

const VERDICT_LABELS: Record<QuizGradePreview['verdict'], string> = {
  correct: 'Correct',
  partially_correct: 'Partly correct (half credit)',
  incorrect: 'Incorrect',
};

function GradePreview({
  jobId,
  question,
  number,
}: {
  jobId: string;
  question: QuizQuestion;
  number: number;
}) {
  const preview = usePreviewGrade(jobId);
  const uid = useId();
  const [text, setText] = useState('');
  const [choice, setChoice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const result = preview.data;
  const isChoice = question.kind === 'multiple_choice';

  // A preview belongs to the question as it was; an edit makes it stale.
  const { reset } = preview;
  useEffect(() => reset(), [question, reset]);

  return (
    <details className="mt-3 rounded-md bg-muted/40 p-3 text-sm">
      <summary className="cursor-pointer font-medium">
        Preview a grade for question {number}
      </summary>
      <form
        className="mt-3 grid gap-3"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (isChoice ? choice === '' : text.trim() === '') {
            setError(
              isChoice ? 'Choose an option first.' : 'Type an answer first, as a learner would.',
            );
            return;
          }
          setError(null);
          preview.mutate(
            { question, answer: isChoice ? { choice } : { text } },
            { onError: (e) => setError(e.message) },
          );
        }}
      >
        {isChoice ? (
          <fieldset className="grid gap-1">
            <legend className="mb-1 font-medium">A learner’s answer</legend>
            {question.choices.map((c) => (
              <label key={c.id} className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${uid}-answer`}
                  value={c.id}
                  className="size-4 accent-primary"
                  checked={choice === c.id}
                  onChange={() => setChoice(c.id)}
                />
                {c.text}
              </label>
            ))}
          </fieldset>
        ) : (
          <div className="grid gap-2">
            <Label htmlFor={`${uid}-answer`}>A learner’s answer</Label>
            <Textarea
              id={`${uid}-answer`}
              rows={2}
              value={text}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${uid}-error` : undefined}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
        )}
        {error && (
          <p id={`${uid}-error`} className="text-destructive" role="alert">
            {error}
          </p>
        )}
        <div>
          <Button type="submit" size="sm" variant="secondary" disabled={preview.isPending}>
            {preview.isPending ? 'Grading…' : 'Preview the grade'}
          </Button>
        </div>
        <div role="status" aria-live="polite">
          {result && (
            <div className="grid gap-1 rounded-md border bg-background p-3">
              <p>
                <Badge variant={result.verdict === 'correct' ? 'default' : 'outline'}>
                  {VERDICT_LABELS[result.verdict]}
                </Badge>{' '}
                <span className="text-muted-foreground">
                  {result.engine
                    ? `Graded by ${result.engine.label}, as the learning app will grade it.`
                    : 'Graded by the answer key, as the learning app will grade it.'}
                </span>
              </p>
              <p>{result.feedback}</p>
              {result.missing.length > 0 && (
                <div>
                  <p className="text-muted-foreground">Key points not made:</p>
                  <ul className="list-disc pl-5">
                    {result.missing.map((point) => (
                      <li key={point}>{point}</li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          )}
        </div>
      </form>
    </details>
  );
}
