/**
 * A course's struggle insights (decision 0222): per bank question and per prerequisite concept,
 * how many learners the study coach saw struggle, as counts only; groups of fewer than five
 * learners are never sent. Only those who teach the course may read them.
 */
import { useQuery } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { serviceError, teachingKeys } from './teaching-keys';

export interface StruggleGroup {
  kind: 'question' | 'concept';
  questionId: string | null;
  label: string;
  moduleTitle: string | null;
  learners: number;
  struggling: number;
  refresherOffers: number;
  refreshersTaken: number;
  wrongAnswers: number;
}

export interface StruggleInsights {
  threshold: number | null;
  hiddenGroups: number;
  questions: StruggleGroup[];
  concepts: StruggleGroup[];
}

export async function getStruggleInsights(courseId: string): Promise<StruggleInsights> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('course_struggle_insights', { course: courseId });
  if (error) throw serviceError(error);
  const rows = (data ?? []) as {
    kind: 'question' | 'concept';
    question_id: string | null;
    label: string;
    module_title: string | null;
    learners: number;
    struggling: number;
    refresher_offers: number;
    refreshers_taken: number;
    wrong_answers: number;
    threshold: number;
    hidden_groups: number;
  }[];
  const groups = rows.map((row) => ({
    kind: row.kind,
    questionId: row.question_id,
    label: row.label,
    moduleTitle: row.module_title,
    learners: row.learners,
    struggling: row.struggling,
    refresherOffers: row.refresher_offers,
    refreshersTaken: row.refreshers_taken,
    wrongAnswers: row.wrong_answers,
  }));
  return {
    threshold: rows[0]?.threshold ?? null,
    hiddenGroups: rows[0]?.hidden_groups ?? 0,
    questions: groups.filter((g) => g.kind === 'question'),
    concepts: groups.filter((g) => g.kind === 'concept'),
  };
}

export function useStruggleInsights(userId: string, courseId: string) {
  return useQuery({
    queryKey: teachingKeys.insights(userId, courseId),
    queryFn: () => getStruggleInsights(courseId),
    enabled: courseId !== '',
  });
}
