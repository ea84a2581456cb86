/**
 * The live room's writes through supabase-js. Row-level security and the tables' triggers
 * decide (decision 0310): who may post, that a muted learner cannot, one answer per learner,
 * that only those who teach remove, mute, ask and close. Each write refreshes its part of the
 * room, so the writer sees the result even before realtime delivers it to the others.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getSupabase } from '@/lib/supabase';
import { liveKeys } from './live-keys';

export const messageSchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, 'Write a message first.')
    .max(2000, 'A message is limited to 2,000 characters.'),
});

export const questionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('poll'),
    prompt: z.string().trim().min(1, 'Write the question.').max(500, 'At most 500 characters.'),
    choices: z
      .array(
        z.string().trim().min(1, 'A choice cannot be empty.').max(200, 'At most 200 characters.'),
      )
      .min(2, 'A poll needs at least two choices.')
      .max(6, 'A poll has at most six choices.'),
  }),
  z.object({
    kind: z.literal('short'),
    prompt: z.string().trim().min(1, 'Write the question.').max(500, 'At most 500 characters.'),
  }),
]);
export type QuestionInput = z.infer<typeof questionSchema>;

export const shortAnswerSchema = z
  .string()
  .trim()
  .min(1, 'Write your answer first.')
  .max(500, 'An answer is limited to 500 characters.');

/** A refusal in words a person understands, from the database's error. */
function refusal(error: { message: string; code?: string }, what: string): Error {
  if (error.code === '23505' && what === 'answer')
    return new Error('You have already answered this question.');
  if (error.code === '23505' && what === 'question')
    return new Error('A question is already open in this room: close it first.');
  if (error.code === '42501') {
    if (what === 'message')
      return new Error(
        'You cannot post in this room: an instructor has muted you, or you are not in the course.',
      );
    return new Error('This is not allowed for you in this room.');
  }
  return new Error(error.message);
}

function useRoomMutation<I>(
  userId: string,
  courseId: string,
  part: 'messages' | 'question' | 'hands' | 'mutes',
  run: (input: I) => Promise<void>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: liveKeys[part](userId, courseId) }),
  });
}

export function useSendMessage(userId: string, courseId: string) {
  return useRoomMutation(userId, courseId, 'messages', async (body: string) => {
    const parsed = messageSchema.parse({ body });
    const client = await getSupabase();
    const { error } = await client
      .from('live_messages')
      .insert({ course_id: courseId, body: parsed.body });
    if (error) throw refusal(error, 'message');
  });
}

export function useRemoveMessage(userId: string, courseId: string) {
  return useRoomMutation(userId, courseId, 'messages', async (messageId: string) => {
    const client = await getSupabase();
    // The database empties the text and records who removed it (decision 0310).
    const { data, error } = await client
      .from('live_messages')
      .update({ body: '' })
      .eq('id', messageId)
      .select('id');
    if (error) throw refusal(error, 'remove');
    if (!data?.length) throw new Error('This message is gone, or you may not remove it.');
  });
}

export function useMute(userId: string, courseId: string) {
  return useRoomMutation(
    userId,
    courseId,
    'mutes',
    async ({ learnerId, muted }: { learnerId: string; muted: boolean }) => {
      const client = await getSupabase();
      const { error } = muted
        ? await client.from('live_mutes').insert({ course_id: courseId, user_id: learnerId })
        : await client
            .from('live_mutes')
            .delete()
            .eq('course_id', courseId)
            .eq('user_id', learnerId);
      if (error && error.code !== '23505') throw refusal(error, 'mute');
    },
  );
}

export function useAskQuestion(userId: string, courseId: string) {
  return useRoomMutation(userId, courseId, 'question', async (input: QuestionInput) => {
    const parsed = questionSchema.parse(input);
    const client = await getSupabase();
    const { error } = await client.from('live_questions').insert({
      course_id: courseId,
      kind: parsed.kind,
      prompt: parsed.prompt,
      choices: parsed.kind === 'poll' ? parsed.choices : [],
    });
    if (error) throw refusal(error, 'question');
  });
}

export function useCloseQuestion(userId: string, courseId: string) {
  return useRoomMutation(userId, courseId, 'question', async (questionId: string) => {
    const client = await getSupabase();
    const { error } = await client
      .from('live_questions')
      .update({ status: 'closed' })
      .eq('id', questionId);
    if (error) throw refusal(error, 'close');
  });
}

export function useAnswer(userId: string, courseId: string) {
  return useRoomMutation(
    userId,
    courseId,
    'question',
    async (
      input: { questionId: string; choice: number } | { questionId: string; text: string },
    ) => {
      const client = await getSupabase();
      const row: Record<string, unknown> =
        'choice' in input
          ? { question_id: input.questionId, choice: input.choice }
          : { question_id: input.questionId, text: shortAnswerSchema.parse(input.text) };
      const { error } = await client.from('live_answers').insert(row);
      if (error) throw refusal(error, 'answer');
    },
  );
}

export function useHand(userId: string, courseId: string) {
  return useRoomMutation(
    userId,
    courseId,
    'hands',
    async ({ learnerId, raised }: { learnerId: string; raised: boolean }) => {
      const client = await getSupabase();
      const { error } = raised
        ? await client.from('live_hands').insert({ course_id: courseId })
        : await client
            .from('live_hands')
            .delete()
            .eq('course_id', courseId)
            .eq('user_id', learnerId);
      if (error && error.code !== '23505') throw refusal(error, 'hand');
    },
  );
}
