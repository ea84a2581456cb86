/** The gateway's side of phone sign-in: GoTrue's refusals, number checks, and texting codes. */
import { brand } from '../../../common/brand';
import { AuthError, validation } from '../../auth/errors';
import { issuePhoneCode, retractPhoneCode, type PhoneCodeType } from '../../auth/phone';
import { normalizePhone, SmsSendError } from '../../auth/sms';
import type { UserRow } from '../../auth/users';
import type { AuthServices } from './http';

/** GoTrue's answer when the phone provider is off, in the words of the endpoint asked. */
export function requirePhoneProvider(
  services: AuthServices,
  status: 400 | 422,
  message: string,
): void {
  if (!services.config.auth.phone.enabled)
    throw new AuthError(status, 'phone_provider_disabled', message);
}

/** The number a request sent, in GoTrue's stored form, or its 400 for a malformed one. */
export function phoneFrom(value: unknown): string {
  const phone = normalizePhone(value);
  if (!phone) throw validation('Invalid phone number format (E.164 required)');
  return phone;
}

/**
 * Texts a new code to `phone` and returns the provider's message id. The code is committed
 * before the text is sent (no transaction waits on the SMS provider); if the provider refuses
 * it, the code is withdrawn so the user can ask again at once.
 */
export async function textCode(
  services: AuthServices,
  ip: string,
  user: UserRow,
  phone: string,
  type: PhoneCodeType,
): Promise<string> {
  services.limits.hit('sms', ip);
  const maxFrequency = services.config.auth.phone.maxFrequencyMs;
  const code = await services.db.transaction((tx) =>
    issuePhoneCode(tx, user, phone, type, maxFrequency),
  );
  try {
    return await services.sms.send(phone, `Your ${brand.product} code is ${code}`);
  } catch (error) {
    await services.db.transaction((tx) => retractPhoneCode(tx, user.id, type));
    if (!(error instanceof SmsSendError)) throw error;
    services.gateway.log.error('SMS not sent', { error: error.message });
    const what = type === 'sms' ? 'confirmation' : 'phone_change';
    throw new AuthError(
      422,
      'sms_send_failed',
      `Error sending ${what} OTP to provider: ${error.message}`,
    );
  }
}
