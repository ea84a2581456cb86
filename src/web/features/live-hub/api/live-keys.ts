/**
 * Query keys of the live room, per user and course. A change delivered by realtime, or the
 * Refresh button, invalidates `room` (everything) or one part of it.
 */
export const liveKeys = {
  all: ['live-hub'] as const,
  room: (userId: string, courseId: string) => [...liveKeys.all, userId, courseId] as const,
  header: (userId: string, courseId: string) =>
    [...liveKeys.room(userId, courseId), 'header'] as const,
  messages: (userId: string, courseId: string) =>
    [...liveKeys.room(userId, courseId), 'messages'] as const,
  question: (userId: string, courseId: string) =>
    [...liveKeys.room(userId, courseId), 'question'] as const,
  hands: (userId: string, courseId: string) =>
    [...liveKeys.room(userId, courseId), 'hands'] as const,
  mutes: (userId: string, courseId: string) =>
    [...liveKeys.room(userId, courseId), 'mutes'] as const,
};
