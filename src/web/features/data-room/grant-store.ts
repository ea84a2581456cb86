/**
 * The data-room grant for this browser session. sessionStorage keeps it across reloads of the
 * tab and drops it when the browser session ends, which is what "verified for the browser
 * session" means. The server decides what the grant is worth; this only remembers it.
 */
const STORAGE_KEY = 'lyceum.data-room.grant';
/** Treat a grant as gone a little before it expires, so a request never races the expiry. */
const EXPIRY_MARGIN_SECONDS = 30;

export interface StoredGrant {
  token: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const listeners = new Set<() => void>();

function storage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    // Storage can be blocked (privacy settings); the visitor then re-enters the PIN.
    return undefined;
  }
}

export function readGrant(now = Date.now()): StoredGrant | undefined {
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return undefined;
  try {
    const grant = JSON.parse(raw) as Partial<StoredGrant>;
    if (
      typeof grant.token === 'string' &&
      typeof grant.expiresAt === 'number' &&
      grant.expiresAt - EXPIRY_MARGIN_SECONDS > now / 1000
    ) {
      return { token: grant.token, expiresAt: grant.expiresAt };
    }
  } catch {
    // A damaged entry is treated like no grant.
  }
  storage()?.removeItem(STORAGE_KEY);
  return undefined;
}

export function hasDataRoomAccess(): boolean {
  return readGrant() !== undefined;
}

export function saveGrant(grant: StoredGrant): void {
  storage()?.setItem(STORAGE_KEY, JSON.stringify(grant));
  listeners.forEach((listener) => listener());
}

/** Forgets the grant in this browser (used by 'Leave data room' and after a rejected grant). */
export function clearDataRoomAccess(): void {
  storage()?.removeItem(STORAGE_KEY);
  listeners.forEach((listener) => listener());
}

export function subscribeToGrant(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
