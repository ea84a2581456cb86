/**
 * Outgoing mail: nodemailer over SMTP when SMTP_URL is set, otherwise the dev mailbox table
 * (shown at /_dev/mailbox outside production), so sign-up and recovery work on a laptop.
 */
import nodemailer from 'nodemailer';
import type { Config } from '../config';
import type { Queryable } from '../db/types';
import type { Logger } from '../logger';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'dev-mailbox';
  /** Delivers the message; a failure is the caller's error. */
  send(message: MailMessage): Promise<void>;
  /**
   * Hands the message over without waiting for the mail server: for the answers that must not
   * tell whether an address has an account (sign-up, recovery), where a mail sent to a real
   * account would otherwise make the answer slower, or fail. Delivery failures are logged.
   * The dev mailbox stores the message before returning (a local insert, like the others).
   */
  post(message: MailMessage): Promise<void>;
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  db: Queryable,
  log: Logger,
): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    const send = async (message: MailMessage) => {
      await transport.sendMail({ from: config.mailFrom, ...message });
    };
    return {
      kind: 'smtp',
      send,
      post(message) {
        send(message).catch((error: unknown) => {
          log.error('mail delivery failed', { subject: message.subject, error: String(error) });
        });
        return Promise.resolve();
      },
    };
  }
  const store = async (message: MailMessage) => {
    await db.query(
      'insert into auth.dev_mailbox (to_address, subject, text_body, html_body) values ($1, $2, $3, $4)',
      [message.to, message.subject, message.text, message.html],
    );
  };
  return { kind: 'dev-mailbox', send: store, post: store };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

interface TemplateInput {
  product: string;
  link?: string;
  code: string;
}

function compose(
  to: string,
  subject: string,
  intro: string,
  action: string | undefined,
  input: TemplateInput,
  outro: string,
): MailMessage {
  const textParts = [intro];
  if (input.link && action) textParts.push(`${action}: ${input.link}`);
  textParts.push(`Or enter this code: ${input.code}`, outro);
  const button =
    input.link && action
      ? `<p><a href="${escapeHtml(input.link)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>`
      : '';
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<p>${escapeHtml(intro)}</p>${button}
<p>Or enter this code: <strong style="font-size:1.25em;letter-spacing:0.1em">${input.code}</strong></p>
<p style="color:#555">${escapeHtml(outro)}</p>
<p style="color:#555">${escapeHtml(input.product)}</p></body></html>`;
  return { to, subject, text: textParts.join('\n\n'), html };
}

const ignore =
  'If you did not ask for this, you can ignore this message. The code expires in one hour.';

export const mailTemplates = {
  confirmation: (to: string, input: TemplateInput) =>
    compose(
      to,
      `Confirm your ${input.product} account`,
      `Welcome to ${input.product}. Confirm your email address to finish creating your account.`,
      'Confirm your email',
      input,
      ignore,
    ),
  recovery: (to: string, input: TemplateInput) =>
    compose(
      to,
      `Reset your ${input.product} password`,
      'Someone asked to reset the password of this account.',
      'Choose a new password',
      input,
      ignore,
    ),
  magicLink: (to: string, input: TemplateInput) =>
    compose(
      to,
      `Your ${input.product} sign-in link`,
      `Someone asked to sign in to ${input.product} with this address.`,
      'Sign in',
      input,
      ignore,
    ),
  emailChange: (to: string, input: TemplateInput) =>
    compose(
      to,
      `Confirm your new email address`,
      `Confirm that you want to use this address for your ${input.product} account.`,
      'Confirm the new address',
      input,
      ignore,
    ),
  invitation: (to: string, input: TemplateInput & { organization?: string }) =>
    compose(
      to,
      input.organization
        ? `You are invited to ${input.organization} on ${input.product}`
        : `You are invited to ${input.product}`,
      `${input.organization ? `${input.organization} invited you` : 'You are invited'} to ${input.product}. Accept the invitation and choose a password to start.`,
      'Accept the invitation',
      input,
      'The link and the code work once, for one hour; after that, ask your administrator to send the invitation again.',
    ),
  reauthentication: (to: string, input: TemplateInput) =>
    compose(
      to,
      `Your ${input.product} security code`,
      'Enter this code to confirm it is you before changing your password.',
      undefined,
      input,
      'If you did not ask for this, someone may know your password: change it. The code expires in one hour.',
    ),
};

/** Tells the current address that a change to another one was requested. */
export function emailChangeNotice(to: string, product: string, newEmail: string): MailMessage {
  const text = `Someone asked to change the email address of your ${product} account from ${to} to ${newEmail}. The change happens only when the new address confirms it. If this was not you, change your password now.`;
  return {
    to,
    subject: `Your ${product} email address is being changed`,
    text,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5"><p>${escapeHtml(text)}</p></body></html>`,
  };
}

/** Tells the account's address that its password changed, and what that ended. */
export function passwordChangedNotice(
  to: string,
  product: string,
  by: 'user' | 'admin',
): MailMessage {
  const who = by === 'admin' ? 'An administrator changed' : 'You changed';
  const ended =
    by === 'admin'
      ? 'Every session of the account was signed out.'
      : 'Every other session of the account was signed out; the one you changed it in stays signed in.';
  const text = `${who} the password of your ${product} account. ${ended} If this was not you, reset your password now and contact support.`;
  return {
    to,
    subject: `Your ${product} password was changed`,
    text,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5"><p>${escapeHtml(text)}</p></body></html>`,
  };
}
