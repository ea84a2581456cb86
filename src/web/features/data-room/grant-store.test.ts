// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDataRoomAccess, hasDataRoomAccess, readGrant, saveGrant } from './grant-store';

class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

describe('data room grant store', () => {
  beforeEach(() => {
    (globalThis as { window?: unknown }).window = { sessionStorage: new MemoryStorage() };
  });
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it('keeps a live grant and clears it on request', () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    saveGrant({ token: 'a.b.c', expiresAt });
    expect(readGrant()).toEqual({ token: 'a.b.c', expiresAt });
    clearDataRoomAccess();
    expect(hasDataRoomAccess()).toBe(false);
  });

  it('drops an expired or damaged grant', () => {
    saveGrant({ token: 'a.b.c', expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect(readGrant()).toBeUndefined();
    (
      globalThis as unknown as { window: { sessionStorage: MemoryStorage } }
    ).window.sessionStorage.setItem('lyceum.data-room.grant', '{not json');
    expect(readGrant()).toBeUndefined();
  });

  it('answers "no access" where there is no browser storage (prerendering)', () => {
    delete (globalThis as { window?: unknown }).window;
    expect(hasDataRoomAccess()).toBe(false);
  });
});
