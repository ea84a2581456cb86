/**
 * The four categories with what each covers in this product (src/common/consent.ts), as
 * switches: essential shown on and fixed, the others the person's to choose. The banner's
 * "Choose" path and the privacy settings share it.
 */
import { useId } from 'react';
import { consentCategories, type ConsentCategory, type ConsentChoices } from '@common/consent';
import { consentCategoryInfo } from '@common/consent-text';

const kindLabels = {
  cookie: 'cookie',
  localStorage: 'local storage',
  sessionStorage: 'session storage',
};

export function ConsentChoiceList({
  choices,
  onChange,
  firstRef,
}: {
  choices: ConsentChoices;
  onChange: (choices: ConsentChoices) => void;
  /** Receives the first switch a person can change, to move focus there. */
  firstRef?: (element: HTMLInputElement | null) => void;
}) {
  return (
    <ul className="grid gap-3">
      {consentCategories.map((category) => (
        <ChoiceRow
          key={category}
          category={category}
          checked={category === 'essential' ? true : choices[category]}
          onToggle={
            category === 'essential'
              ? undefined
              : (value) => onChange({ ...choices, [category]: value })
          }
          inputRef={category === 'analytics' ? firstRef : undefined}
        />
      ))}
    </ul>
  );
}

function ChoiceRow({
  category,
  checked,
  onToggle,
  inputRef,
}: {
  category: ConsentCategory;
  checked: boolean;
  onToggle?: (value: boolean) => void;
  inputRef?: (element: HTMLInputElement | null) => void;
}) {
  const id = useId();
  const info = consentCategoryInfo[category];
  return (
    <li className="rounded-lg border bg-background p-3">
      <div className="flex items-start justify-between gap-3">
        <label htmlFor={id} className="font-medium">
          {info.label}
          {!onToggle && (
            <span className="ml-2 text-sm font-normal text-muted-foreground">(always on)</span>
          )}
        </label>
        <input
          id={id}
          ref={inputRef}
          type="checkbox"
          role="switch"
          name={`consent-${category}`}
          aria-describedby={`${id}-summary`}
          className="mt-1 size-5 shrink-0 cursor-pointer accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed"
          checked={checked}
          disabled={!onToggle}
          onChange={(event) => onToggle?.(event.target.checked)}
        />
      </div>
      <p id={`${id}-summary`} className="mt-1 text-sm text-muted-foreground">
        {info.summary}
      </p>
      {info.items.length > 0 && (
        <ul className="mt-2 grid gap-1 text-xs text-muted-foreground">
          {info.items.map((item) => (
            <li key={item.name}>
              <code className="rounded bg-muted px-1 py-0.5 text-foreground">{item.name}</code> (
              {kindLabels[item.kind]}, {item.lifetime}): {item.purpose}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
