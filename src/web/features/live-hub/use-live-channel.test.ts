import { describe, expect, it } from 'vitest';
import type { LiveMessage } from './api/get-live-room';
import { withMessage } from './use-live-channel';

function message(id: string, createdAt: string, body = id): LiveMessage {
  return {
    id,
    userId: 'u',
    authorName: 'Ada',
    fromInstructor: false,
    body,
    createdAt,
    removedAt: null,
    sample: false,
  };
}

describe('withMessage (a chat row delivered by postgres changes)', () => {
  const first = message('a', '2026-11-23T10:00:00.000000+00:00');
  const second = message('b', '2026-11-23T10:00:01.000000+00:00');

  it('adds a new message in the order the room reads it', () => {
    const late = message('c', '2026-11-23T10:00:00.500000+00:00');
    expect(withMessage([first, second], late)?.map((m) => m.id)).toEqual(['a', 'c', 'b']);
  });

  it('replaces a message it already shows (a removal, or the poster’s own message)', () => {
    const removed = { ...first, body: '', removedAt: '2026-11-23T10:05:00+00:00' };
    const result = withMessage([first, second], removed);
    expect(result).toHaveLength(2);
    expect(result?.[0]).toEqual(removed);
  });

  it('leaves a chat that is not loaded yet for its first read', () => {
    expect(withMessage(undefined, first)).toBeUndefined();
  });
});
