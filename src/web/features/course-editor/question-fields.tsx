/**
 * The parts of the question form: the answer by type (choices with the correct one marked, a
 * number with tolerance and unit, or a reference text), ordered lists of text (key points,
 * hints) and misconceptions. Errors arrive keyed by path, so each shows under its control.
 */
import { useId, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, Plus, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Textarea } from '@/components/ui/textarea';
import { Field, type FieldErrors } from './editor-form';
import { moveItem } from './move-item';
import {
  emptyAnswer,
  nextChoiceId,
  typeLabels,
  type AnswerDraft,
  type MisconceptionDraft,
  type QuestionType,
} from './question-schema';

export function Group({
  legend,
  error,
  description,
  children,
}: {
  legend: string;
  error?: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset
      className="grid min-w-0 gap-3 rounded-lg border p-3 sm:p-4"
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      {description && <p className="-mt-1 text-xs text-muted-foreground">{description}</p>}
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
      {children}
    </fieldset>
  );
}

function IconButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      size="icon"
      variant="outline"
      className="size-8 shrink-0"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** The question's answer by its type; `at` is the error path prefix (`prerequisite.questions.0.`). */
export function AnswerFields({
  answer,
  onChange,
  errors,
  at = '',
  promptLabel = 'Question',
}: {
  answer: AnswerDraft;
  onChange: (answer: AnswerDraft) => void;
  errors: FieldErrors;
  at?: string;
  promptLabel?: string;
}) {
  const radioName = useId();
  const set = <K extends keyof AnswerDraft>(key: K, value: AnswerDraft[K]) =>
    onChange({ ...answer, [key]: value });
  const letter = (id: string) => id.toUpperCase();

  return (
    <div className="grid gap-3">
      <Field label={promptLabel} error={errors[`${at}prompt`]}>
        {(props) => (
          <Textarea
            {...props}
            rows={2}
            value={answer.prompt}
            onChange={(e) => set('prompt', e.target.value)}
          />
        )}
      </Field>
      <Field label="Type" error={errors[`${at}type`]} className="sm:max-w-60">
        {(props) => (
          <NativeSelect
            {...props}
            value={answer.type}
            onChange={(e) => set('type', e.target.value as QuestionType)}
          >
            {(Object.keys(typeLabels) as QuestionType[]).map((type) => (
              <option key={type} value={type}>
                {typeLabels[type]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      {answer.type === 'multiple_choice' && (
        <Group
          legend="Choices (3 to 5; mark the correct one)"
          error={errors[`${at}choices`] ?? errors[`${at}correctChoice`]}
        >
          <ul className="grid gap-2">
            {answer.choices.map((choice, i) => (
              <li key={choice.id} className="flex items-end gap-2">
                <Field
                  label={`Choice ${letter(choice.id)}`}
                  error={errors[`${at}choices.${i}.text`]}
                  className="flex-1"
                >
                  {(props) => (
                    <Input
                      {...props}
                      value={choice.text}
                      onChange={(e) =>
                        set(
                          'choices',
                          answer.choices.map((c) =>
                            c.id === choice.id ? { ...c, text: e.target.value } : c,
                          ),
                        )
                      }
                    />
                  )}
                </Field>
                <label className="flex h-9 items-center gap-1.5 text-sm">
                  <input
                    type="radio"
                    name={radioName}
                    className="size-4 accent-primary"
                    checked={answer.correctChoice === choice.id}
                    onChange={() => set('correctChoice', choice.id)}
                  />
                  Correct<span className="sr-only"> answer: choice {letter(choice.id)}</span>
                </label>
                <IconButton
                  label={`Remove choice ${letter(choice.id)}`}
                  disabled={answer.choices.length <= 3}
                  onClick={() =>
                    onChange({
                      ...answer,
                      choices: answer.choices.filter((c) => c.id !== choice.id),
                      correctChoice: answer.correctChoice === choice.id ? '' : answer.correctChoice,
                    })
                  }
                >
                  <X aria-hidden="true" />
                </IconButton>
              </li>
            ))}
          </ul>
          <div>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={nextChoiceId(answer.choices) === null}
              onClick={() => {
                const id = nextChoiceId(answer.choices);
                if (id) set('choices', [...answer.choices, { id, text: '' }]);
              }}
            >
              <Plus aria-hidden="true" />
              Add choice
            </Button>
          </div>
        </Group>
      )}
      {answer.type === 'numeric' && (
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Correct value" error={errors[`${at}value`]}>
            {(props) => (
              <Input
                {...props}
                inputMode="decimal"
                value={answer.value}
                onChange={(e) => set('value', e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Tolerance (±)"
            error={errors[`${at}tolerance`]}
            description="0 accepts exactly the value."
          >
            {(props) => (
              <Input
                {...props}
                inputMode="decimal"
                value={answer.tolerance}
                onChange={(e) => set('tolerance', e.target.value)}
              />
            )}
          </Field>
          <Field label="Unit" error={errors[`${at}unit`]} description="For example cm or %.">
            {(props) => (
              <Input {...props} value={answer.unit} onChange={(e) => set('unit', e.target.value)} />
            )}
          </Field>
        </div>
      )}
      {answer.type === 'short_text' && (
        <Field
          label="Reference answer"
          error={errors[`${at}referenceText`]}
          description="What a good answer says; the instructor grades against it."
        >
          {(props) => (
            <Textarea
              {...props}
              rows={2}
              value={answer.referenceText}
              onChange={(e) => set('referenceText', e.target.value)}
            />
          )}
        </Field>
      )}
    </div>
  );
}

/** An ordered list of short texts (key points, hints) with add, remove and move. */
export function TextList({
  legend,
  itemLabel,
  items,
  onChange,
  errors,
  name,
  min,
  max,
  description,
  ordered = false,
}: {
  legend: string;
  itemLabel: string;
  items: string[];
  onChange: (items: string[]) => void;
  errors: FieldErrors;
  name: string;
  min: number;
  max: number;
  description?: string;
  ordered?: boolean;
}) {
  return (
    <Group legend={legend} error={errors[name]} description={description}>
      <ol className="grid gap-2">
        {items.map((item, i) => (
          // Items have no ids of their own; they are controlled, so keys by position are safe.
          <li key={i} className="flex items-end gap-2">
            <Field
              label={`${itemLabel} ${i + 1}`}
              error={errors[`${name}.${i}`]}
              className="flex-1"
            >
              {(props) => (
                <Input
                  {...props}
                  value={item}
                  onChange={(e) => onChange(items.map((x, j) => (j === i ? e.target.value : x)))}
                />
              )}
            </Field>
            {ordered && (
              <>
                <IconButton
                  label={`Move ${itemLabel.toLowerCase()} ${i + 1} up`}
                  disabled={i === 0}
                  onClick={() => onChange(moveItem(items, i, i - 1))}
                >
                  <ArrowUp aria-hidden="true" />
                </IconButton>
                <IconButton
                  label={`Move ${itemLabel.toLowerCase()} ${i + 1} down`}
                  disabled={i === items.length - 1}
                  onClick={() => onChange(moveItem(items, i, i + 1))}
                >
                  <ArrowDown aria-hidden="true" />
                </IconButton>
              </>
            )}
            <IconButton
              label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}
              disabled={items.length <= min}
              onClick={() => onChange(items.filter((_, j) => j !== i))}
            >
              <X aria-hidden="true" />
            </IconButton>
          </li>
        ))}
      </ol>
      <div>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={items.length >= max}
          onClick={() => onChange([...items, ''])}
        >
          <Plus aria-hidden="true" />
          Add {itemLabel.toLowerCase()}
        </Button>
      </div>
    </Group>
  );
}

export function MisconceptionList({
  items,
  onChange,
  errors,
  choices,
}: {
  items: MisconceptionDraft[];
  onChange: (items: MisconceptionDraft[]) => void;
  errors: FieldErrors;
  /** The question's choices when it is multiple choice, to tie feedback to a wrong one. */
  choices: { id: string; text: string }[] | null;
}) {
  const update = (i: number, change: Partial<MisconceptionDraft>) =>
    onChange(items.map((m, j) => (j === i ? { ...m, ...change } : m)));
  return (
    <Group
      legend="Common misconceptions (1 to 3)"
      error={errors.misconceptions}
      description="What students often get wrong, and the feedback that puts it right."
    >
      <ol className="grid gap-3">
        {items.map((item, i) => (
          <li key={i} className="grid gap-2 rounded-md border bg-background p-3">
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-medium">Misconception {i + 1}</p>
              <IconButton
                label={`Remove misconception ${i + 1}`}
                disabled={items.length <= 1}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                <X aria-hidden="true" />
              </IconButton>
            </div>
            <Field label="What students think" error={errors[`misconceptions.${i}.misconception`]}>
              {(props) => (
                <Input
                  {...props}
                  value={item.misconception}
                  onChange={(e) => update(i, { misconception: e.target.value })}
                />
              )}
            </Field>
            <Field label="Feedback" error={errors[`misconceptions.${i}.feedback`]}>
              {(props) => (
                <Textarea
                  {...props}
                  rows={2}
                  value={item.feedback}
                  onChange={(e) => update(i, { feedback: e.target.value })}
                />
              )}
            </Field>
            {choices && (
              <Field
                label="Shown for the choice"
                error={errors[`misconceptions.${i}.choice`]}
                description="Students who pick this wrong choice get the feedback at once."
                className="sm:max-w-72"
              >
                {(props) => (
                  <NativeSelect
                    {...props}
                    value={item.choice}
                    onChange={(e) => update(i, { choice: e.target.value })}
                  >
                    <option value="">No particular choice</option>
                    {choices.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.id.toUpperCase()}: {c.text || '(empty)'}
                      </option>
                    ))}
                  </NativeSelect>
                )}
              </Field>
            )}
          </li>
        ))}
      </ol>
      <div>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={items.length >= 3}
          onClick={() => onChange([...items, { misconception: '', feedback: '', choice: '' }])}
        >
          <Plus aria-hidden="true" />
          Add misconception
        </Button>
      </div>
    </Group>
  );
}

export function BasicQuestions({
  items,
  onChange,
  errors,
}: {
  items: AnswerDraft[];
  onChange: (items: AnswerDraft[]) => void;
  errors: FieldErrors;
}) {
  return (
    <Group legend="Basic questions (2 to 4)" error={errors['prerequisite.questions']}>
      <ol className="grid gap-3">
        {items.map((item, i) => (
          <li key={i} className="grid gap-2 rounded-md border bg-background p-3">
            <div className="flex items-center justify-between gap-2">
              <p className="text-sm font-medium">Basic question {i + 1}</p>
              <IconButton
                label={`Remove basic question ${i + 1}`}
                disabled={items.length <= 2}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                <X aria-hidden="true" />
              </IconButton>
            </div>
            <AnswerFields
              answer={item}
              onChange={(next) => onChange(items.map((x, j) => (j === i ? next : x)))}
              errors={errors}
              at={`prerequisite.questions.${i}.`}
              promptLabel={`Basic question ${i + 1}`}
            />
          </li>
        ))}
      </ol>
      <div>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={items.length >= 4}
          onClick={() => onChange([...items, emptyAnswer('short_text')])}
        >
          <Plus aria-hidden="true" />
          Add basic question
        </Button>
      </div>
    </Group>
  );
}
