/** TOTP factors (RFC 6238: SHA-1, 6 digits, 30 s) with otpauth, and the enrolment QR code. */
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

export const TOTP_PERIOD = 30;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function totpFor(secret: string, issuer: string, label: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/**
 * The QR code as raw SVG. supabase-js turns it into `data:image/svg+xml;utf-8,<svg…>` without
 * escaping, where a `#` would end the data and start a fragment, so colours are written as
 * rgb() and the markup holds no `#` or `%`.
 */
export async function qrCodeSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return svg.replace(
    /#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/gi,
    (_hex, r: string, g: string, b: string) => {
      return `rgb(${parseInt(r, 16)},${parseInt(g, 16)},${parseInt(b, 16)})`;
    },
  );
}

/**
 * Checks a code against the current step and one step either side (clock drift). Returns the
 * accepted step, or undefined; a step at or before `lastUsedStep` is a replay and fails.
 */
export function checkTotp(
  secret: string,
  code: unknown,
  lastUsedStep: number | null,
  now = Date.now(),
): number | undefined {
  if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) return undefined;
  const totp = totpFor(secret, 'x', 'x');
  const delta = totp.validate({ token: code.trim(), timestamp: now, window: 1 });
  if (delta === null) return undefined;
  const step = Math.floor(now / 1000 / TOTP_PERIOD) + delta;
  if (lastUsedStep != null && step <= lastUsedStep) return undefined;
  return step;
}
