/**
 * The consent banner (decision 0410): shown on a first visit to any page until a choice is
 * made, and again from "Privacy choices" in the footer. "Reject all" and "Accept all" are the
 * same size and style side by side, and "Choose" opens the categories with what each covers.
 * It does not block the page; it takes focus when it appears, so keyboard and screen-reader
 * users meet it first, and gives focus back when it closes.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { acceptAllChoices, rejectAllChoices, type ConsentChoices } from '@common/consent';
import { Button } from '@/components/ui/button';
import { readConsent, subscribeOpenRequests } from '@/lib/consent-state';

// A first visit shows the banner; its categories and the code that stores a choice load only
// when the visitor opens the one or makes the other (decision 0190: public pages load what they
// show, not what a click may need).
const ConsentChoiceList = lazy(() =>
  import('./consent-choices').then((m) => ({ default: m.ConsentChoiceList })),
);
const loadSaveConsent = () => import('@/lib/consent').then((m) => m.saveConsent);

export function ConsentBanner({ startChoosing = false }: { startChoosing?: boolean }) {
  const [open, setOpen] = useState(true);
  const [choosing, setChoosing] = useState(startChoosing);
  const [choices, setChoices] = useState<ConsentChoices>(
    () => readConsent()?.choices ?? rejectAllChoices,
  );
  const [saving, setSaving] = useState(false);
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const chooseRef = useRef<HTMLButtonElement>(null);
  const firstSwitch = useRef<HTMLInputElement | null>(null);
  const returnFocus = useRef<Element | null>(null);

  useEffect(
    () =>
      subscribeOpenRequests(() => {
        setChoices(readConsent()?.choices ?? rejectAllChoices);
        setChoosing(true);
        setOpen(true);
      }),
    [],
  );

  useEffect(() => {
    if (!open) return;
    returnFocus.current = document.activeElement;
    headingRef.current?.focus();
  }, [open]);

  // The list loads when "Choose" is pressed: focus moves to it once it is there. Stable, so a
  // re-render does not hand the focus back to the first switch.
  const focusFirstSwitch = useCallback((element: HTMLInputElement | null) => {
    if (element && !firstSwitch.current) element.focus();
    firstSwitch.current = element;
  }, []);

  async function decide(value: ConsentChoices) {
    setSaving(true);
    try {
      (await loadSaveConsent())(value, 'visitor');
    } catch {
      // The code to store it did not load (the connection dropped): the banner stays, to try again.
      return;
    } finally {
      setSaving(false);
    }
    setOpen(false);
    setChoosing(false);
    const back = returnFocus.current;
    if (back instanceof HTMLElement && back !== document.body && back.isConnected) back.focus();
    else document.getElementById('main-content')?.focus();
  }

  if (!open) return null;
  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      data-testid="consent-banner"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && choosing) {
          setChoosing(false);
          chooseRef.current?.focus();
        }
      }}
      className="fixed inset-x-0 bottom-0 z-50 max-h-[85vh] overflow-y-auto border-t bg-card text-card-foreground shadow-2xl sm:inset-x-4 sm:bottom-4 sm:mx-auto sm:max-w-3xl sm:rounded-xl sm:border"
    >
      <div className="grid gap-3 p-4 sm:p-5">
        <h2
          id={titleId}
          ref={headingRef}
          tabIndex={-1}
          className="text-base font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          Your privacy choices
        </h2>
        <p className="text-sm text-muted-foreground">
          Lyceum needs essential storage to keep you signed in. Anything else is up to you: you can
          refuse it as easily as accept it, and change your mind at any time under Privacy choices
          at the foot of every page or on{' '}
          <Link className="font-medium text-primary underline underline-offset-4" to="/app/privacy">
            your privacy page
          </Link>
          . Read the{' '}
          <Link
            className="font-medium text-primary underline underline-offset-4"
            to="/privacy-gdpr"
          >
            privacy notice
          </Link>
          .
        </p>
        {choosing && (
          <Suspense fallback={null}>
            <ConsentChoiceList
              choices={choices}
              onChange={setChoices}
              firstRef={focusFirstSwitch}
            />
          </Suspense>
        )}
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-3">
          <Button variant="default" disabled={saving} onClick={() => void decide(rejectAllChoices)}>
            Reject all
          </Button>
          <Button variant="default" disabled={saving} onClick={() => void decide(acceptAllChoices)}>
            Accept all
          </Button>
          {choosing ? (
            <Button variant="outline" disabled={saving} onClick={() => void decide(choices)}>
              Save my choices
            </Button>
          ) : (
            <Button ref={chooseRef} variant="outline" onClick={() => setChoosing(true)}>
              Choose
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
