import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from './signature';

describe('webhook signatures', () => {
  it('signs the timestamp and body, and a receiver verifies them', () => {
    const signature = signWebhook('whsec_test', 1_700_000_000, '{"a":1}');
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhook('whsec_test', 1_700_000_000, '{"a":1}', signature)).toBe(true);
    expect(verifyWebhook('whsec_test', 1_700_000_001, '{"a":1}', signature)).toBe(false);
    expect(verifyWebhook('whsec_test', 1_700_000_000, '{"a":2}', signature)).toBe(false);
    expect(verifyWebhook('whsec_other', 1_700_000_000, '{"a":1}', signature)).toBe(false);
  });
});
