import { useMutation } from '@tanstack/react-query';
import type { Factor } from '@supabase/supabase-js';
import { startAuth } from '../auth-store';

export interface TotpEnrolment {
  factorId: string;
  qrCode: string;
  secret: string;
}

/**
 * Starts a TOTP enrolment (a QR code and its secret), replacing an enrolment abandoned earlier
 * (page closed before the code was entered).
 */
export async function enrolTotp(factors: Factor[]): Promise<TotpEnrolment> {
  const client = await startAuth();
  for (const stale of factors.filter((f) => f.status !== 'verified')) {
    await client.auth.mfa.unenroll({ factorId: stale.id });
  }
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp' });
  if (error) throw error;
  return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

export function useEnrolTotp() {
  return useMutation({ mutationFn: enrolTotp });
}
