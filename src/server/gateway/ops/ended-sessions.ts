/**
 * Which sessions have ended, as every gateway process sees it: a trigger on `auth.sessions`
 * records each ended session in `platform.ended_sessions` and sends NOTIFY (migration 0071).
 * Each process loads the recent ones at start, adds each notification as it arrives (within
 * milliseconds) and re-reads the table every `pollMs`, so a notification lost with a dropped
 * connection delays a refusal by at most that long (decision 0071). PGlite delivers the same
 * notifications in-process.
 */
import type { Database } from '../../db/types';
import type { Logger } from '../../logger';

export const ENDED_SESSIONS_CHANNEL = 'lyceum_session_ended';
export const ENDED_SESSIONS_POLL_MS = 2_000;
/** Re-read this far back on each poll: a sign-out may commit a little after its `ended_at`. */
const POLL_OVERLAP_MS = 60_000;
/** Table rows older than any access token's lifetime are pruned this often. */
const PRUNE_INTERVAL_MS = 10 * 60_000;

export interface EndedSessions {
  /** True when the session was ended while tokens issued for it may still be unexpired. */
  has(sessionId: unknown): boolean;
}

export interface EndedSessionsWatch extends EndedSessions {
  stop(): Promise<void>;
}

type PollRow = { now: Date; ids: string[] };

/**
 * Starts watching. `tokenLifetimeSeconds` is how long an ended session must be remembered: no
 * token issued before it ended outlives that.
 */
export async function watchEndedSessions(
  deps: { db: Database; log: Logger },
  tokenLifetimeSeconds: number,
  pollMs = ENDED_SESSIONS_POLL_MS,
): Promise<EndedSessionsWatch> {
  const { db, log } = deps;
  // Clock skew between processes and the database gets a minute of margin.
  const keepMs = tokenLifetimeSeconds * 1000 + 60_000;
  const ended = new Map<string, number>();
  let since = new Date(Date.now() - keepMs);
  let lastPrune = Date.now();
  let failing = false;

  const poll = async () => {
    const { rows } = await db.query<PollRow>(
      `select now() as now,
              array(select session_id::text from platform.ended_sessions
                     where ended_at > $1::timestamptz) as ids`,
      [since.toISOString()],
    );
    const { now, ids } = rows[0]!;
    const at = Date.now();
    for (const id of ids) if (!ended.has(id)) ended.set(id, at);
    since = new Date(new Date(now).getTime() - POLL_OVERLAP_MS);
    for (const [id, seen] of ended) if (at - seen > keepMs) ended.delete(id);
    if (at - lastPrune >= PRUNE_INTERVAL_MS) {
      lastPrune = at;
      await db.query(
        `delete from platform.ended_sessions where ended_at < now() - make_interval(secs => $1)`,
        [keepMs / 1000],
      );
    }
  };

  let running: Promise<void> = Promise.resolve();
  const pollNow = () => {
    running = running
      .then(poll)
      .then(() => {
        if (failing) log.info('ended-session poll recovered');
        failing = false;
      })
      .catch((error: unknown) => {
        if (!failing) log.warn('ended-session poll failed', { error: (error as Error).message });
        failing = true;
      });
  };

  const unlisten = await db.listen(ENDED_SESSIONS_CHANNEL, (id) => {
    // An empty payload means the listener reconnected and may have missed some: re-read.
    if (id) ended.set(id, Date.now());
    else pollNow();
  });
  await poll();
  const timer = setInterval(pollNow, pollMs);
  timer.unref();

  return {
    has: (sessionId) => typeof sessionId === 'string' && ended.has(sessionId),
    async stop() {
      clearInterval(timer);
      await running;
      await unlisten();
    },
  };
}
