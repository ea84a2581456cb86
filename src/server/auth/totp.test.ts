import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { checkTotp, newTotpSecret, qrCodeSvg, totpFor } from './totp';

describe('totp', () => {
  it('accepts the current code once and refuses replays and wrong codes', () => {
    const secret = newTotpSecret();
    const now = Date.now();
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
      timestamp: now,
    });
    const step = checkTotp(secret, code, null, now);
    expect(step).toBe(Math.floor(now / 30000));
    expect(checkTotp(secret, code, step!, now)).toBeUndefined();
    expect(checkTotp(secret, '12345', null, now)).toBeUndefined();
    expect(checkTotp(secret, 'abcdef', null, now)).toBeUndefined();
    expect(checkTotp(secret, undefined, null, now)).toBeUndefined();
  });

  it('renders the otpauth URI as an SVG QR code', async () => {
    const uri = totpFor(newTotpSecret(), 'Lyceum', 'ada@example.com').toString();
    expect(uri).toMatch(/^otpauth:\/\/totp\/Lyceum:ada%40example\.com\?/);
    const svg = await qrCodeSvg(uri);
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Safe inside an unescaped data: URI, as supabase-js builds it.
    expect(svg).not.toMatch(/[#%]/);
    expect(svg).toContain('rgb(0,0,0)');
  });
});
