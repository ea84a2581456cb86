/**
 * The signed-in user's row of `public.user_preferences` (decision 0170): read by the app shell,
 * which applies the accessibility part to every screen, and written by Settings. A user who
 * never saved has no row; they get the defaults.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from './supabase';
import {
  applyAccessibility,
  parseAccessibility,
  rememberAccessibility,
  type AccessibilityPreferences,
} from './accessibility';

export interface UserPreferences extends AccessibilityPreferences {
  language: string;
  timeZone: string;
  remindStreak: boolean;
  remindGoals: boolean;
  leaderboardOptIn: boolean;
}

interface PreferencesRow {
  text_size: string;
  line_spacing: string;
  font: string;
  reduced_motion: boolean;
  high_contrast: boolean;
  reading_ruler: boolean;
  language: string;
  time_zone: string;
  remind_streak: boolean;
  remind_goals: boolean;
  leaderboard_opt_in: boolean;
}

const columns =
  'text_size, line_spacing, font, reduced_motion, high_contrast, reading_ruler, language, time_zone, remind_streak, remind_goals, leaderboard_opt_in';

/** The browser's own zone: a sensible first value for someone who never chose one. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function defaultPreferences(): UserPreferences {
  return {
    ...parseAccessibility({}),
    language: 'en',
    timeZone: browserTimeZone(),
    remindStreak: true,
    remindGoals: true,
    leaderboardOptIn: false,
  };
}

function fromRow(row: PreferencesRow): UserPreferences {
  return {
    ...parseAccessibility({
      textSize: row.text_size,
      lineSpacing: row.line_spacing,
      font: row.font,
      reducedMotion: row.reduced_motion,
      highContrast: row.high_contrast,
      readingRuler: row.reading_ruler,
    }),
    language: row.language,
    timeZone: row.time_zone,
    remindStreak: row.remind_streak,
    remindGoals: row.remind_goals,
    leaderboardOptIn: row.leaderboard_opt_in,
  };
}

function toRow(prefs: UserPreferences): PreferencesRow {
  return {
    text_size: prefs.textSize,
    line_spacing: prefs.lineSpacing,
    font: prefs.font,
    reduced_motion: prefs.reducedMotion,
    high_contrast: prefs.highContrast,
    reading_ruler: prefs.readingRuler,
    language: prefs.language,
    time_zone: prefs.timeZone,
    remind_streak: prefs.remindStreak,
    remind_goals: prefs.remindGoals,
    leaderboard_opt_in: prefs.leaderboardOptIn,
  };
}

export const preferencesKeys = {
  all: ['user-preferences'] as const,
  of: (userId: string) => [...preferencesKeys.all, userId] as const,
};

/** `saved` tells a screen whether the learner ever saved (the time zone then is theirs). */
export async function getPreferences(
  userId: string,
): Promise<{ preferences: UserPreferences; saved: boolean }> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('user_preferences')
    .select(columns)
    .eq('user_id', userId)
    .maybeSingle<PreferencesRow>();
  if (error) throw new Error(error.message);
  return data
    ? { preferences: fromRow(data), saved: true }
    : { preferences: defaultPreferences(), saved: false };
}

export function usePreferences(userId: string) {
  return useQuery({
    queryKey: preferencesKeys.of(userId),
    queryFn: () => getPreferences(userId),
  });
}

/** The screen's own copy of what the server holds, so the next load paints it at once. */
export function applyAndRemember(prefs: AccessibilityPreferences): void {
  applyAccessibility(prefs);
  rememberAccessibility(prefs);
}

export async function savePreferences({
  userId,
  preferences,
}: {
  userId: string;
  preferences: UserPreferences;
}): Promise<UserPreferences> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('user_preferences')
    .upsert({ user_id: userId, ...toRow(preferences) })
    .select(columns)
    .single<PreferencesRow>();
  if (error) {
    throw new Error(
      error.code === '22023' ? error.message : `Your settings were not saved: ${error.message}`,
    );
  }
  return fromRow(data);
}

export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: savePreferences,
    // A read still in flight (the app frame's, a refetch on focus) would land after the save
    // and put the old preferences back on screen: cancel it, and read again once saved.
    onMutate: ({ userId }) => queryClient.cancelQueries({ queryKey: preferencesKeys.of(userId) }),
    onSuccess: (preferences, { userId }) => {
      queryClient.setQueryData(preferencesKeys.of(userId), { preferences, saved: true });
      applyAndRemember(preferences);
    },
    onSettled: (_data, _error, { userId }) =>
      queryClient.invalidateQueries({ queryKey: preferencesKeys.of(userId) }),
  });
}
