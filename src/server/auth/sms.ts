/**
 * Outgoing SMS for phone sign-in: Twilio's Messages API when it is configured (its base URL
 * overridable, so tests run a local fake), otherwise the dev mailbox that holds mail in
 * embedded mode, with the number as the address.
 */
import type { Config } from '../config';
import type { Queryable } from '../db/types';

export interface SmsSender {
  readonly kind: 'twilio' | 'dev-mailbox';
  /** Sends the text to an E.164 number (digits, no "+"); resolves to the message's id. */
  send(phone: string, text: string): Promise<string>;
}

/** Why a message could not be handed to the provider, in words an operator can act on. */
export class SmsSendError extends Error {}

/** Twilio's answer to a message request: its own fields, as its API documents them. */
interface TwilioMessage {
  sid?: string;
  status?: string;
  error_code?: number | null;
  error_message?: string | null;
  code?: number;
  message?: string;
}

const TWILIO_TIMEOUT_MS = 10_000;

export function createSmsSender(config: Pick<Config, 'auth'>, db: Queryable): SmsSender {
  const twilio = config.auth.phone.twilio;
  if (!twilio) {
    return {
      kind: 'dev-mailbox',
      async send(phone, text) {
        const { rows } = await db.query<{ id: string }>(
          `insert into auth.dev_mailbox (to_address, subject, text_body, html_body)
           values ($1, 'SMS', $2, $3) returning id::text`,
          [
            `+${phone}`,
            text,
            `<p>${text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)}</p>`,
          ],
        );
        return `dev-mailbox-${rows[0]!.id}`;
      },
    };
  }
  const endpoint = `${twilio.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(twilio.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`;
  return {
    kind: 'twilio',
    async send(phone, text) {
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ To: `+${phone}`, From: twilio.sender, Body: text }),
          signal: AbortSignal.timeout(TWILIO_TIMEOUT_MS),
        });
      } catch (error) {
        throw new SmsSendError(`Twilio could not be reached: ${(error as Error).message}`);
      }
      const answer = (await response.json().catch(() => ({}))) as TwilioMessage;
      if (!response.ok) {
        throw new SmsSendError(
          `Twilio refused the message (HTTP ${response.status}${answer.code ? `, code ${answer.code}` : ''}): ${answer.message ?? 'no reason given'}`,
        );
      }
      if (answer.status === 'failed' || answer.status === 'undelivered' || answer.error_code) {
        throw new SmsSendError(
          `Twilio could not deliver the message: ${answer.error_message ?? answer.status ?? 'unknown error'}`,
        );
      }
      if (!answer.sid) throw new SmsSendError('Twilio answered without a message id');
      return answer.sid;
    },
  };
}

/** GoTrue's number format: E.164 digits, the "+" and spaces dropped; undefined if it is not one. */
export function normalizePhone(phone: unknown): string | undefined {
  if (typeof phone !== 'string') return undefined;
  const digits = phone.trim().replace(/^\+/, '').replaceAll(' ', '');
  return /^[1-9][0-9]{1,14}$/.test(digits) ? digits : undefined;
}
