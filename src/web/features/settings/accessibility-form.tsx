/**
 * Text size, spacing, font, motion, contrast, the reading ruler, language, time zone and the
 * leaderboard opt-in: one row of user_preferences, saved together.
 */
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useSavePreferences, type UserPreferences } from '@/lib/user-preferences';
import { SelectField } from '@/components/ui/field';
import { CheckField, ChoiceField } from './settings-ui';

const textSizeOptions = [
  { value: 'default', label: 'Standard' },
  { value: 'large', label: 'Large' },
  { value: 'larger', label: 'Larger' },
  { value: 'largest', label: 'Largest' },
] as const;

const spacingOptions = [
  { value: 'default', label: 'Standard' },
  { value: 'relaxed', label: 'Relaxed' },
  { value: 'loose', label: 'Loose' },
] as const;

const fontOptions = [
  { value: 'default', label: 'Standard' },
  { value: 'dyslexic', label: 'OpenDyslexic' },
] as const;

/** Every zone the browser knows (the database checks the name again), the current one first. */
function timeZoneChoices(current: string): string[] {
  let zones: string[] = [];
  try {
    zones =
      (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ??
      [];
  } catch {
    zones = [];
  }
  return [...new Set([current, 'UTC', ...zones])];
}

export function AccessibilityForm({
  userId,
  initial,
}: {
  userId: string;
  initial: UserPreferences;
}) {
  const [prefs, setPrefs] = useState(initial);
  const save = useSavePreferences();
  const set = <K extends keyof UserPreferences>(key: K, value: UserPreferences[K]) =>
    setPrefs((current) => ({ ...current, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate(
      { userId, preferences: prefs },
      {
        onSuccess: () => toast.success('Preferences saved and applied.'),
        onError: (error) => toast.error(error.message),
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      className="grid gap-5"
      aria-label="Accessibility, language and study preferences"
    >
      <ChoiceField
        legend="Text size"
        name="text-size"
        options={textSizeOptions}
        value={prefs.textSize}
        onChange={(value) => set('textSize', value)}
      />
      <ChoiceField
        legend="Line spacing"
        name="line-spacing"
        options={spacingOptions}
        value={prefs.lineSpacing}
        onChange={(value) => set('lineSpacing', value)}
      />
      <ChoiceField
        legend="Font"
        name="font"
        options={fontOptions}
        value={prefs.font}
        onChange={(value) => set('font', value)}
      />
      <p className="-mt-3 text-sm text-muted-foreground">
        OpenDyslexic is a typeface designed for readers with dyslexia; it is downloaded only if you
        choose it.
      </p>
      <CheckField
        label="Reduce motion"
        hint="Turns off animations and transitions, whatever your device's setting. When off, the app follows your device."
        checked={prefs.reducedMotion}
        onChange={(value) => set('reducedMotion', value)}
      />
      <CheckField
        label="High contrast"
        hint="Darker text and borders, underlined links and a thicker focus outline."
        checked={prefs.highContrast}
        onChange={(value) => set('highContrast', value)}
      />
      <CheckField
        label="Reading ruler"
        hint="Dims the screen above and below a band that follows your pointer or keyboard focus, to help keep your place in a line."
        checked={prefs.readingRuler}
        onChange={(value) => set('readingRuler', value)}
      />
      <SelectField
        label="Language"
        value={prefs.language}
        onChange={(event) => set('language', event.target.value)}
        hint="English is the only translation of Lyceum today; your choice is kept for when more arrive."
        className="max-w-xs"
      >
        <option value="en">English</option>
      </SelectField>
      <SelectField
        label="Time zone"
        value={prefs.timeZone}
        onChange={(event) => set('timeZone', event.target.value)}
        hint="Your study days (the daily streak, cards-a-day and minutes-a-week goals) follow this calendar."
        className="max-w-sm"
      >
        {timeZoneChoices(prefs.timeZone).map((zone) => (
          <option key={zone} value={zone}>
            {zone.replace(/_/g, ' ')}
          </option>
        ))}
      </SelectField>
      <fieldset className="grid gap-3">
        <legend className="mb-1 text-sm font-medium">Reminders on your dashboard</legend>
        <CheckField
          label="Streak reminder"
          hint="On the dashboard, when you have a streak and have not studied yet today."
          checked={prefs.remindStreak}
          onChange={(value) => set('remindStreak', value)}
        />
        <CheckField
          label="Goal dates"
          hint="On the dashboard, goals due within three days that are not met yet."
          checked={prefs.remindGoals}
          onChange={(value) => set('remindGoals', value)}
        />
        <p className="text-sm text-muted-foreground">
          Lyceum sends email only about your account&apos;s security (codes, password and email
          changes); those cannot be turned off.
        </p>
      </fieldset>
      <div id="leaderboard">
        <CheckField
          label="Show me on course leaderboards"
          hint="Off unless you turn it on. When on, the learners and instructors of your courses see your display name and the XP you earned in that course on its leaderboard."
          checked={prefs.leaderboardOptIn}
          onChange={(value) => set('leaderboardOptIn', value)}
        />
      </div>
      {save.isError && <Notice tone="error">{save.error.message}</Notice>}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save preferences'}
        </Button>
      </div>
    </form>
  );
}
