/** The learner's decks with their counts, and the writes that change a deck. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEnrolledCourses } from '@/lib/enrolled-courses';
import { getSupabase } from '@/lib/supabase';
import { flashcardKeys, serviceError } from './flashcard-keys';

export interface Deck {
  id: string;
  name: string;
  description: string;
  courseId: string | null;
  courseTitle: string | null;
  desiredRetention: number;
  total: number;
  due: number;
  new: number;
  suspended: number;
  nextDue: string | null;
}

interface DeckRow {
  id: string;
  name: string;
  description: string;
  course_id: string | null;
  desired_retention: number | string;
  course: { title: string } | null;
}

interface SummaryRow {
  deck_id: string;
  total: number;
  due: number;
  new: number;
  suspended: number;
  next_due: string | null;
}

export async function getDecks(): Promise<Deck[]> {
  const client = await getSupabase();
  const [decks, summaries] = await Promise.all([
    client
      .from('flashcard_decks')
      .select('id, name, description, course_id, desired_retention, course:courses(title)')
      .order('name'),
    client.rpc('flashcard_deck_summaries'),
  ]);
  if (decks.error) throw serviceError(decks.error);
  if (summaries.error) throw serviceError(summaries.error);
  const counts = new Map((summaries.data as SummaryRow[]).map((row) => [row.deck_id, row]));
  return (decks.data as unknown as DeckRow[]).map((row) => {
    const count = counts.get(row.id);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      courseId: row.course_id,
      courseTitle: row.course?.title ?? null,
      desiredRetention: Number(row.desired_retention),
      total: count?.total ?? 0,
      due: count?.due ?? 0,
      new: count?.new ?? 0,
      suspended: count?.suspended ?? 0,
      nextDue: count?.next_due ?? null,
    };
  });
}

export function useDecks(userId: string) {
  return useQuery({ queryKey: flashcardKeys.decks(userId), queryFn: getDecks });
}

export interface DeckInput {
  name: string;
  description: string;
  courseId: string | null;
  desiredRetention: number;
}

const deckRow = (input: DeckInput) => ({
  name: input.name.trim(),
  description: input.description.trim(),
  course_id: input.courseId,
  desired_retention: input.desiredRetention,
});

export async function createDeck(input: DeckInput): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client
    .from('flashcard_decks')
    .insert(deckRow(input))
    .select('id')
    .single();
  if (error) throw serviceError(error);
  return (data as { id: string }).id;
}

export async function updateDeck(id: string, input: DeckInput): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('flashcard_decks').update(deckRow(input)).eq('id', id);
  if (error) throw serviceError(error);
}

export async function deleteDeck(id: string): Promise<void> {
  const client = await getSupabase();
  const { error } = await client.from('flashcard_decks').delete().eq('id', id);
  if (error) throw serviceError(error);
}

export function useCreateDeck(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDeck,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flashcardKeys.user(userId) }),
  });
}

export function useUpdateDeck(userId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DeckInput) => updateDeck(id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flashcardKeys.user(userId) }),
  });
}

export function useDeleteDeck(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDeck,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: flashcardKeys.user(userId) }),
  });
}

export type { EnrolledCourse as CourseChoice } from '@/lib/enrolled-courses';

/** Courses a deck may belong to: those the learner is enrolled in, by title. */
export function useDeckCourses(userId: string) {
  return useEnrolledCourses(userId, 'title');
}
