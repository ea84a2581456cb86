/**
 * The organization admin's single sign-on endpoint (/functions/v1/org-sso, decision 0034)
 * through supabase-js on PGlite and PostgreSQL: an org-wide admin registers, changes and removes
 * the organization's SAML provider; a learner, a board admin and another organization's admin
 * are refused and change nothing; a domain another organization holds is refused.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SsoProvider, SsoSettings } from '../../src/common/sso';
import { startSamlIdp, type SamlIdp } from '../support/saml-idp';
import { insertRow, unique } from '../support/service-rows';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPerson, type Person } from './public-api-world';

async function call<T>(
  client: SupabaseClient,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T & { error?: string; code?: string } }> {
  const { data, error, response } = await client.functions.invoke(`org-sso${path}`, {
    method,
    body: body as Record<string, unknown> | undefined,
  });
  if (!error)
    return { status: response!.status, body: data as T & { error?: string; code?: string } };
  const failed = (error as { context?: Response }).context!;
  if (typeof (failed as Response | undefined)?.json !== 'function') {
    throw new Error(`${error.name}: ${error.message} (${String(failed)})`);
  }
  return {
    status: failed.status,
    body: (await failed.json()) as T & { error?: string; code?: string },
  };
}

describe.each(databaseKinds)('organization single sign-on settings on %s', (kind) => {
  let server: TestServer;
  let idp: SamlIdp;
  let org: string;
  let otherOrg: string;
  let admin: Person;
  let learner: Person;
  let boardAdmin: Person;
  let otherAdmin: Person;
  const domain = `${unique('campus').toLowerCase()}.example`;

  beforeAll(async () => {
    idp = await startSamlIdp({ name: 'Campus IdP' });
    server = await startTestServer(kind, {
      SAML_METADATA_ALLOWED_TARGETS: new URL(idp.url).host,
    });
    const service = server.service();
    admin = await createPerson(server, 'admin');
    learner = await createPerson(server, 'learner');
    boardAdmin = await createPerson(server, 'board admin');
    otherAdmin = await createPerson(server, 'other admin');
    org = (
      await insertRow<{ id: string }>(service, 'organizations', {
        name: 'Campus',
        slug: unique('campus'),
      })
    ).id;
    otherOrg = (
      await insertRow<{ id: string }>(service, 'organizations', {
        name: 'Rival',
        slug: unique('rival'),
      })
    ).id;
    const board = await insertRow<{ id: string }>(service, 'boards', {
      organization_id: org,
      name: 'Sciences',
      slug: 'sciences',
    });
    await insertRow(service, 'memberships', {
      user_id: admin.id,
      organization_id: org,
      role: 'org_admin',
    });
    await insertRow(service, 'memberships', {
      user_id: learner.id,
      organization_id: org,
      role: 'learner',
    });
    await insertRow(service, 'memberships', {
      user_id: boardAdmin.id,
      organization_id: org,
      board_id: board.id,
      role: 'org_admin',
    });
    await insertRow(service, 'memberships', {
      user_id: otherAdmin.id,
      organization_id: otherOrg,
      role: 'org_admin',
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await idp?.close();
  });

  it('registers, changes and removes the organization’s provider, and shows the SP details', async () => {
    const empty = await call<SsoSettings>(admin.client, 'GET', `/organizations/${org}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      serviceProvider: {
        entityId: `${server.url}/auth/v1/sso/saml/metadata`,
        acsUrl: `${server.url}/auth/v1/sso/saml/acs`,
        metadataUrl: `${server.url}/auth/v1/sso/saml/metadata`,
      },
      providers: [],
    });
    const created = await call<SsoProvider>(
      admin.client,
      'POST',
      `/organizations/${org}/providers`,
      {
        metadata_url: idp.metadataUrl,
        domains: [domain],
        attribute_mapping: { keys: { email: { name: 'mail' } } },
        organization_id: otherOrg,
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The organization comes from the path, not from the body.
    expect(created.body).toMatchObject({ organization_id: org, domains: [{ domain }] });
    const changed = await call<SsoProvider>(
      admin.client,
      'PUT',
      `/organizations/${org}/providers/${created.body.id}`,
      { domains: [domain, `staff.${domain}`], attribute_mapping: { keys: {} } },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.domains.map((d) => d.domain)).toEqual([domain, `staff.${domain}`].sort());
    const listed = await call<SsoSettings>(admin.client, 'GET', `/organizations/${org}`);
    expect(listed.body.providers.map((p) => p.id)).toEqual([created.body.id]);

    // The rival organization cannot claim the domain, and says whose it is.
    const rival = await startSamlIdp({ name: 'Rival IdP' });
    try {
      const claimed = await call<SsoProvider>(
        otherAdmin.client,
        'POST',
        `/organizations/${otherOrg}/providers`,
        { metadata_xml: rival.metadataXml, domains: [domain] },
      );
      expect(claimed.status).toBe(400);
      expect(claimed.body).toMatchObject({
        code: 'sso_domain_already_exists',
        error: `SSO Domain '${domain}' is already assigned to another organization’s identity provider`,
      });
    } finally {
      await rival.close();
    }

    const removed = await call(
      admin.client,
      'DELETE',
      `/organizations/${org}/providers/${created.body.id}`,
    );
    expect(removed.status).toBe(200);
    expect(
      (await call<SsoSettings>(admin.client, 'GET', `/organizations/${org}`)).body.providers,
    ).toEqual([]);
  });

  it('refuses learners, board admins and other organizations’ admins, changing nothing', async () => {
    const created = await call<SsoProvider>(
      admin.client,
      'POST',
      `/organizations/${org}/providers`,
      {
        metadata_xml: idp.metadataXml,
        domains: [`only.${domain}`],
      },
    );
    expect(created.status).toBe(201);
    for (const person of [learner, boardAdmin, otherAdmin]) {
      const read = await call(person.client, 'GET', `/organizations/${org}`);
      expect(read.status).toBe(403);
      const removed = await call(
        person.client,
        'DELETE',
        `/organizations/${org}/providers/${created.body.id}`,
      );
      expect(removed.status).toBe(403);
    }
    // Another organization's admin cannot reach it through their own organization either.
    const sideways = await call(
      otherAdmin.client,
      'PUT',
      `/organizations/${otherOrg}/providers/${created.body.id}`,
      { domains: [] },
    );
    expect(sideways).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const still = await call<SsoSettings>(admin.client, 'GET', `/organizations/${org}`);
    expect(still.body.providers[0]).toMatchObject({
      id: created.body.id,
      domains: [{ domain: `only.${domain}` }],
    });
  });

  it('says what is wrong with bad input', async () => {
    const noMetadata = await call(admin.client, 'POST', `/organizations/${org}/providers`, {
      domains: [],
    });
    expect(noMetadata).toMatchObject({
      status: 400,
      body: { error: 'Either metadata_xml or metadata_url must be set' },
    });
    const badDomain = await call(admin.client, 'POST', `/organizations/${org}/providers`, {
      metadata_xml: idp.metadataXml,
      domains: ['not a domain'],
    });
    expect(badDomain.body.error).toBe(
      '"not a domain" is not a domain name such as university.example',
    );
    const broken = await call(admin.client, 'POST', `/organizations/${org}/providers`, {
      metadata_xml: '<EntityDescriptor entityID="x"><IDPSSODescriptor>',
    });
    expect(broken.body.error).toMatch(/SAML Metadata is not well-formed XML/);
  });
});
