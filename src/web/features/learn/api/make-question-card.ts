/**
 * A flashcard from a quiz question the learner has answered (flashcard_from_question, decision
 * 0162). The database decides whether the answer may be shown yet and says why not.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { serviceError } from './scope';

export async function makeQuestionCard(questionId: string): Promise<string> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('flashcard_from_question', { question_id: questionId });
  if (error) throw serviceError(error);
  return data as string;
}

export function useMakeQuestionCard(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeQuestionCard,
    // The flashcard screens' queries live under ['flashcards', userId] (their due counts too).
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['flashcards', userId] }),
  });
}
