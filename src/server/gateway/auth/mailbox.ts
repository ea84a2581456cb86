/**
 * `/_dev/mailbox`: the mail the auth service would have sent, for development without SMTP.
 * Mounted in embedded mode (no DATABASE_URL) outside production, when no SMTP server is set,
 * and answered only to this machine: it holds every reset link, so anyone who could read it
 * could take any account (decision 0054).
 */
import { isIP } from 'node:net';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Config } from '../../config';
import type { Database } from '../../db/types';
import type { Logger } from '../../logger';
import { clientAddress } from '../ops/client-address';

/** 127.0.0.0/8 and ::1; "localhost" for a HOST setting. */
export function isLoopback(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

/**
 * Only loopback clients. Without TRUST_PROXY a forwarding header means the request came
 * through a proxy on this machine, so its loopback peer says nothing about the real client.
 */
function loopbackOnly(config: Pick<Config, 'trustedProxies'>) {
  return createMiddleware(async (c, next) => {
    const forwarded = c.req.header('x-forwarded-for') ?? c.req.header('forwarded');
    const viaProxy = config.trustedProxies === 0 && forwarded !== undefined;
    if (viaProxy || !isLoopback(clientAddress(c))) {
      return c.json(
        {
          code: 'forbidden',
          message:
            'The dev mailbox answers only requests from this machine (loopback), not through a proxy: open it on the machine that runs the server.',
        },
        403,
      );
    }
    await next();
  });
}

interface MailRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: Date;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Escapes the text, then makes its http(s) links clickable. */
function linkify(text: string): string {
  return escape(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

export function mailboxRoutes(
  db: Database,
  config: Pick<Config, 'host' | 'trustedProxies'>,
  log: Logger,
) {
  if (!isLoopback(config.host)) {
    log.warn(
      `The dev mailbox (/_dev/mailbox) holds every sign-up and password-reset link, and HOST=${config.host} lets other machines reach this server. It answers loopback clients only, but a proxy on this machine that adds no X-Forwarded-For would make every client look local. Set SMTP_URL, or HOST=127.0.0.1 unless other machines must reach it.`,
    );
  }
  const app = new Hono();
  app.use('*', loopbackOnly(config));

  app.get('/messages.json', async (c) => {
    const to = c.req.query('to');
    const { rows } = await db.query<MailRow & Record<string, unknown>>(
      `select id, to_address, subject, text_body, created_at from auth.dev_mailbox
       where $1::text is null or lower(to_address) = lower($1) order by id desc limit 100`,
      [to ?? null],
    );
    return c.json(rows);
  });

  app.get('/', async (c) => {
    const to = c.req.query('to');
    const { rows } = await db.query<MailRow & Record<string, unknown>>(
      `select id, to_address, subject, text_body, created_at from auth.dev_mailbox
       where $1::text is null or lower(to_address) = lower($1) order by id desc limit 50`,
      [to ?? null],
    );
    const items = rows
      .map(
        (m) => `<article aria-labelledby="m${m.id}">
  <h2 id="m${m.id}">${escape(m.subject)}</h2>
  <p class="meta">To <span class="to">${escape(m.to_address)}</span> · ${new Date(m.created_at).toISOString()}</p>
  <div class="body">${linkify(m.text_body)}</div>
</article>`,
      )
      .join('\n');
    c.header('Cache-Control', 'no-store');
    return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox</title>
<style>
body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#111;line-height:1.5}
article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}
h2{font-size:1.1rem;margin:0}.meta{color:#444;font-size:.875rem;margin:.25rem 0 .75rem}
.body{white-space:pre-wrap;overflow-wrap:anywhere}a{color:#1d4ed8}
</style></head><body>
<main><h1>Dev mailbox</h1>
<p>Mail the auth service would have sent. Development only: set SMTP_URL to send real mail.</p>
${items || '<p>No messages yet.</p>'}
</main></body></html>`);
  });

  return app;
}
