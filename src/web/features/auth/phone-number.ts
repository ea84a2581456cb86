/**
 * A phone number typed for a text-message second factor: international form (E.164), as the
 * auth service stores it. Spaces, dashes, dots and brackets people type are dropped; a number
 * without its country code is refused here with what to type instead, before the service is
 * asked.
 */
export type PhoneNumberResult = { phone: string } | { problem: string };

export function phoneNumber(input: string): PhoneNumberResult {
  const typed = input.trim();
  if (!typed) return { problem: 'Enter your mobile number.' };
  const compact = typed.replace(/[\s().-]/g, '');
  if (!compact.startsWith('+')) {
    return {
      problem:
        'Start with + and your country code, for example +44 7700 900123 or +1 415 555 0100.',
    };
  }
  if (/[^\d]/.test(compact.slice(1))) {
    return { problem: 'A phone number has only digits after the +, like +44 7700 900123.' };
  }
  if (!/^\+[1-9]\d{6,14}$/.test(compact)) {
    return {
      problem:
        'That number is too short or too long: an international number has 7 to 15 digits after the +, and no leading 0.',
    };
  }
  return { phone: compact };
}

/** A stored number (digits only) as the user typed it: with its +. */
export function displayPhone(digits: string): string {
  return digits.startsWith('+') ? digits : `+${digits}`;
}

/** The last digits of a number, enough to tell one's own phones apart on the sign-in step. */
export function phoneEnding(digits: string): string {
  return digits.replace(/\D/g, '').slice(-4);
}
