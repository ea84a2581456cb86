import type { StoredGrant } from '../grant-store';
import { DataRoomRequestError, invokeDataRoom } from './data-room-client';

export type PinCheckResult =
  | { ok: true; grant: StoredGrant }
  | { ok: false; reason: 'wrong' | 'limited' | 'invalid' | 'unavailable'; message: string };

/** Asks the server to check the PIN; the server takes at least 500 ms to answer. */
export async function checkPin(pin: string): Promise<PinCheckResult> {
  try {
    const data = await invokeDataRoom<{ grant: string; expiresAt: number }>('data-room-access', {
      method: 'POST',
      body: { pin },
      withGrant: false,
    });
    return { ok: true, grant: { token: data.grant, expiresAt: data.expiresAt } };
  } catch (error) {
    if (!(error instanceof DataRoomRequestError)) throw error;
    if (error.status === 401) return { ok: false, reason: 'wrong', message: error.message };
    if (error.status === 429) return { ok: false, reason: 'limited', message: error.message };
    if (error.status === 400) return { ok: false, reason: 'invalid', message: error.message };
    return { ok: false, reason: 'unavailable', message: error.message };
  }
}
