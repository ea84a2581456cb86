/**
 * "Sign in with SSO" on the sign-in page (issue 18, decision 0183), the whole round trip in
 * headless Chromium: the learner types their university email, the app finds the
 * organization's SAML provider, the browser goes to the identity provider (samlify on loopback,
 * the one the SAML integration tests use), whose auto-posting form reaches our assertion
 * consumer service, and the learner lands signed in where they were going. An address no
 * organization claims, a disabled provider and input that is no address get clear messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { insertRow } from '../integration/learning-fixture';
import { startAppBrowser, type AppBrowser, type Viewport } from '../support/app-browser';
import { seriousAxeViolations } from '../support/browser';
import { startSamlIdp, type SamlIdp } from '../support/saml-idp';

let app: AppBrowser;
let idp: SamlIdp;
let providerId: string;
const domain = 'lovelace-university.example';

async function admin(method: string, path: string, body?: unknown) {
  const key = app.server.deps.keys.serviceRoleKey;
  const response = await fetch(`${app.baseUrl}/auth/v1/admin/sso/providers${path}`, {
    method,
    headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function ssoPage(viewport: Viewport, next = '/app'): Promise<Page> {
  const page = await app.newPage(viewport);
  await page.goto(`${app.baseUrl}/login?next=${encodeURIComponent(next)}`);
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in with SSO' }).waitFor();
  return page;
}

async function continueWith(page: Page, typed: string) {
  await page.getByLabel('University email or domain').fill(typed);
  await page.getByRole('button', { name: 'Continue' }).click();
}

beforeAll(async () => {
  idp = await startSamlIdp({ name: 'Sign-in page test IdP' });
  await idp.warmUp();
  app = await startAppBrowser('sso-sign-in');
  const org = await insertRow<{ id: string }>(app.service, 'organizations', {
    name: 'Lovelace University',
    slug: 'lovelace-university',
  });
  const created = await admin('POST', '', {
    type: 'saml',
    metadata_xml: idp.metadataXml,
    domains: [domain],
    organization_id: org.id,
  });
  expect(created.status).toBe(201);
  providerId = created.body.id as string;
}, 240_000);
afterAll(async () => {
  await app?.close();
  await idp?.close();
});

describe('sign in with SSO', () => {
  it('goes from the university email to the identity provider and back, signed in where the learner was going', async () => {
    const page = await ssoPage('desktop', '/app/notes');
    try {
      expect(await seriousAxeViolations(page), 'SSO sign-in').toEqual([]);
      await app.shot(page, 'sso-sign-in-1280');
      idp.signIn({
        nameId: 'ada-at-lovelace',
        attributes: {
          email: `ada@${domain}`,
          firstName: 'Ada',
          lastName: 'Lovelace',
        },
      });
      await continueWith(page, `  Ada@${domain.toUpperCase()} `);
      await page.waitForURL(`${app.baseUrl}/app/notes`);
      await page.getByRole('heading', { level: 1, name: 'Notes' }).waitFor();
      // The header names the learner from the attributes the identity provider released.
      await page.getByText('Ada Lovelace').first().waitFor();

      const { data } = await app.service.auth.admin.listUsers();
      const ada = data.users.find((user) => user.email === `ada@${domain}`);
      expect(ada?.app_metadata.provider).toBe('sso:' + providerId);
    } finally {
      await page.close();
    }
  });

  it('shows the refusal when the identity provider’s answer is not signed', async () => {
    const page = await ssoPage('desktop');
    try {
      idp.signIn(
        { nameId: 'mallory', attributes: { email: `mallory@${domain}` } },
        { sign: 'none' },
      );
      await continueWith(page, `mallory@${domain}`);
      await page.getByText(/^Your organization’s sign-in did not complete: .+/).waitFor();
      expect(page.url()).toMatch(/\/login\?sso=1&/);
      const sessionStored = await page.evaluate(() =>
        Object.keys(localStorage).some((key) => /^sb-.+-auth-token$/.test(key)),
      );
      expect(sessionStored).toBe(false);
      const { data } = await app.service.auth.admin.listUsers();
      expect(data.users.some((user) => user.email === `mallory@${domain}`)).toBe(false);
      expect(await seriousAxeViolations(page), 'SSO refused').toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('says so when no organization signs in with SSO for the address, or it is not an address', async () => {
    const page = await ssoPage('mobile');
    try {
      await continueWith(page, 'grace@unknown-college.example');
      await page
        .getByText(
          'No organization signs in with SSO for unknown-college.example. Check the address, or sign in with your email and password.',
        )
        .waitFor();
      expect(page.url()).toMatch(/\/login\?/);
      expect(await seriousAxeViolations(page), 'SSO sign-in, unknown domain').toEqual([]);
      await app.shot(page, 'sso-sign-in-unknown-390');

      await continueWith(page, 'Lovelace University');
      await page
        .getByText(
          '“Lovelace University” is not an email address or a domain. Enter one like name@university.edu or university.edu.',
        )
        .waitFor();
    } finally {
      await page.close();
    }
  });

  it('says when the organization’s single sign-on is switched off', async () => {
    const switched = (disabled: boolean) =>
      app.server.deps.db.query('update auth.sso_providers set disabled = $2 where id = $1', [
        providerId,
        disabled,
      ]);
    await switched(true);
    const page = await ssoPage('desktop');
    try {
      await continueWith(page, domain);
      await page
        .getByText(
          `Single sign-on for ${domain} is switched off at the moment. Ask your organization’s administrator, or sign in with your email and password.`,
        )
        .waitFor();
    } finally {
      await page.close();
      await switched(false);
    }
  });
});
