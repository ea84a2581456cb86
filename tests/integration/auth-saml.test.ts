/**
 * SAML single sign-on through supabase-js's signInWithSSO against samlify running as the
 * identity provider on loopback (tests/support/saml-idp.ts): round trips, the admin API, and
 * each refusal the issue lists, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startSamlIdp,
  postToAcs,
  type AcsForm,
  type LoginOptions,
  type SamlIdp,
} from '../support/saml-idp';
import { selfSignedCertificate } from '../support/self-signed-cert';
import { insertRow, unique } from '../support/service-rows';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, hashParams } from './auth-support';

interface ProviderJson {
  id: string;
  saml: {
    entity_id: string;
    metadata_url?: string;
    metadata_xml?: string;
    attribute_mapping: unknown;
  };
  domains: Array<{ domain: string }>;
  organization_id: string | null;
}

describe.each(databaseKinds)('SAML single sign-on on %s', (kind) => {
  let server: TestServer;
  let idp: SamlIdp;
  let organizationId: string;
  let provider: ProviderJson;
  const domain = `${unique('uni').toLowerCase()}.example`;

  async function admin(method: string, path: string, body?: unknown) {
    const response = await fetch(`${server.url}/auth/v1/admin/sso/providers${path}`, {
      method,
      headers: {
        apikey: server.serviceRoleKey,
        authorization: `Bearer ${server.serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  const back = () => `${server.url}/auth/confirm`;
  let people = 0;
  const person = (overrides: Partial<{ email: string; role: string }> = {}) => {
    people += 1;
    const email = overrides.email ?? `person-${people}-${kind}@${domain}`;
    return {
      nameId: `id-${kind}-${people}-${Date.now()}`,
      attributes: {
        email,
        firstName: 'Ada',
        lastName: `Lovelace ${people}`,
        ...(overrides.role ? { eduRole: overrides.role } : {}),
      },
    };
  };

  /** Starts a sign-in through supabase-js and returns what the IdP would post. */
  async function startSignIn(
    user: ReturnType<typeof person>,
    options: LoginOptions = {},
    flowType: 'implicit' | 'pkce' = 'implicit',
  ) {
    const client = browserLikeClient(server, { flowType });
    const { data, error } = await client.auth.signInWithSSO({
      domain,
      options: { redirectTo: back() },
    });
    expect(error).toBeNull();
    idp.signIn(user, options);
    return { client, form: await idp.authenticate(data!.url) };
  }

  /** The refusal's code and message from the redirect the ACS answered with. */
  async function refusal(form: AcsForm) {
    const { location } = await postToAcs(form);
    expect(location.hash).not.toMatch(/access_token/);
    return {
      code: location.searchParams.get('error_code'),
      message: location.searchParams.get('error_description') ?? '',
    };
  }

  beforeAll(async () => {
    idp = await startSamlIdp();
    await idp.warmUp();
    server = await startTestServer(kind, {
      AUTH_RATE_LIMIT_SIGN_IN: '1000',
      SAML_METADATA_ALLOWED_TARGETS: new URL(idp.url).host,
    });
    const org = await insertRow<{ id: string }>(server.service(), 'organizations', {
      name: 'SSO University',
      slug: unique('sso-uni'),
    });
    organizationId = org.id;
    const created = await admin('POST', '', {
      type: 'saml',
      metadata_url: idp.metadataUrl,
      domains: [domain],
      organization_id: organizationId,
      attribute_mapping: { keys: { role: { name: 'eduRole' } } },
    });
    expect(created.status).toBe(201);
    provider = created.body as unknown as ProviderJson;
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await idp?.close();
  });

  it('registers the IdP from its metadata URL in GoTrue’s shape', async () => {
    expect(provider).toMatchObject({
      saml: { entity_id: idp.entityId, metadata_url: idp.metadataUrl },
      domains: [{ domain }],
      organization_id: organizationId,
    });
    const listed = await admin('GET', '');
    expect(listed.status).toBe(200);
    const items = listed.body.items as ProviderJson[];
    expect(items.map((p) => p.id)).toContain(provider.id);
    expect(items.find((p) => p.id === provider.id)!.saml.metadata_xml).toBeUndefined();
  });

  it('serves SP metadata with the entity ID and the ACS', async () => {
    const response = await fetch(`${server.url}/auth/v1/sso/saml/metadata`);
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml).toContain(`entityID="${server.url}/auth/v1/sso/saml/metadata"`);
    expect(xml).toContain(`Location="${server.url}/auth/v1/sso/saml/acs"`);
  });

  it('signs a new person in by domain (implicit flow), links the identity and makes them a learner', async () => {
    const user = person();
    const { client, form } = await startSignIn(user);
    const { status, location } = await postToAcs(form);
    expect(status).toBe(302);
    expect(location.toString().startsWith(back())).toBe(true);
    const params = hashParams(location);
    expect(params.get('error_description')).toBeNull();
    const { data, error } = await client.auth.getUser(params.get('access_token')!);
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      email: user.attributes.email,
      user_metadata: { first_name: 'Ada', last_name: user.attributes.lastName },
      app_metadata: { provider: `sso:${provider.id}` },
    });
    expect(data.user!.identities!.map((i) => i.provider)).toEqual([`sso:${provider.id}`]);
    const { rows } = await server.deps.db.query<{ role: string }>(
      'select role from public.memberships where user_id = $1 and organization_id = $2',
      [data.user!.id, organizationId],
    );
    expect(rows.map((r) => r.role)).toEqual(['learner']);
  });

  it('signs in by provider id with PKCE: ?code= exchanged by supabase-js, role from the mapping', async () => {
    const user = person({ role: 'instructor' });
    const client = browserLikeClient(server, { flowType: 'pkce' });
    const { data, error } = await client.auth.signInWithSSO({
      providerId: provider.id,
      options: { redirectTo: back() },
    });
    expect(error).toBeNull();
    idp.signIn(user);
    const { location } = await postToAcs(await idp.authenticate(data!.url));
    const code = location.searchParams.get('code');
    expect(code).toBeTruthy();
    const exchanged = await client.auth.exchangeCodeForSession(code!);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(user.attributes.email);
    const { rows } = await server.deps.db.query<{ role: string }>(
      'select role from public.memberships where user_id = $1 and organization_id = $2',
      [exchanged.data.user!.id, organizationId],
    );
    expect(rows.map((r) => r.role)).toEqual(['instructor']);
    // The same person again: the same account, no second membership.
    idp.signIn(user);
    const again = await client.auth.signInWithSSO({
      providerId: provider.id,
      options: { redirectTo: back() },
    });
    const second = await postToAcs(await idp.authenticate(again.data!.url));
    const next = await client.auth.exchangeCodeForSession(
      second.location.searchParams.get('code')!,
    );
    expect(next.data.user?.id).toBe(exchanged.data.user!.id);
  });

  describe('refuses', () => {
    const assertionOf = (xml: string) => /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
    const forged = (assertion: string, id: string) =>
      assertion
        .replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '')
        .replace(/ID="[^"]+"/, `ID="${id}"`)
        .replace(/>[^<]*@[^<]*</, '>mallory@attacker.example<');

    it('an unsigned response', async () => {
      const { form } = await startSignIn(person(), { sign: 'none' });
      const { code, message } = await refusal(form);
      expect(code).toBe('validation_failed');
      expect(message).toMatch(/SAML Assertion is not valid: .*signature/i);
    });

    it('a response signed with a key the metadata does not name', async () => {
      const { form } = await startSignIn(person(), {
        sign: 'both',
        signingKey: selfSignedCertificate('Impostor'),
      });
      expect((await refusal(form)).message).toMatch(/signature/i);
    });

    it('a response from an unregistered IdP', async () => {
      const { form } = await startSignIn(person(), {
        issuer: 'https://unregistered-idp.example/metadata',
        signingKey: selfSignedCertificate('Unregistered'),
      });
      const { code, message } = await refusal(form);
      expect(code).toBe('saml_idp_not_found');
      expect(message).toMatch(/has not been established/);
    });

    it('a response for another service provider (audience)', async () => {
      const { form } = await startSignIn(person(), {
        audience: 'https://other-sp.example/metadata',
      });
      expect((await refusal(form)).message).toMatch(/audience mismatch/i);
    });

    it('a response addressed to another ACS (destination)', async () => {
      const { form } = await startSignIn(person(), {
        sign: 'both',
        destination: 'https://other-sp.example/acs',
      });
      expect((await refusal(form)).message).toMatch(
        /addressed to https:\/\/other-sp\.example\/acs/,
      );
    });

    it('an expired response, but accepts one a few seconds early (clock skew)', async () => {
      const expired = await startSignIn(person(), { notBefore: -900, notOnOrAfter: -600 });
      expect((await refusal(expired.form)).message).toMatch(/expired/i);
      const early = await startSignIn(person(), { notBefore: 10 });
      const { location } = await postToAcs(early.form);
      expect(hashParams(location).get('access_token')).toBeTruthy();
    });

    it('a response to a request this server did not make (InResponseTo)', async () => {
      const { form } = await startSignIn(person(), { inResponseTo: '_not-a-request-of-ours' });
      expect((await refusal(form)).message).toMatch(/InResponseTo does not name the request/);
    });

    it('a replayed response, and a replayed assertion ID under a fresh request', async () => {
      const assertionId = `_replayed-${kind}-${Date.now()}`;
      const first = await startSignIn(person(), { assertionId });
      const { location } = await postToAcs(first.form);
      expect(hashParams(location).get('access_token')).toBeTruthy();
      const replay = await refusal(first.form);
      expect(replay.code).toBe('saml_relay_state_not_found');
      const again = await startSignIn(person(), { assertionId });
      const reused = await refusal(again.form);
      expect(reused.message).toMatch(/already used to sign in \(replay\)/);
    });

    it('XML signature wrapping: a forged assertion beside the signed one', async () => {
      const { form } = await startSignIn(person(), {
        sign: 'assertion',
        mutate: (xml) => {
          const signed = assertionOf(xml);
          return xml.replace(signed, forged(signed, '_forged') + signed);
        },
      });
      expect((await refusal(form)).message).toMatch(/Invalid signature: multiple assertions/);
    });

    it('XML signature wrapping: the signed assertion hidden in Extensions, a forgery in its place', async () => {
      const { form } = await startSignIn(person(), {
        sign: 'assertion',
        mutate: (xml) => {
          const signed = assertionOf(xml);
          const id = /ID="([^"]+)"/.exec(signed)![1]!;
          return xml
            .replace(signed, forged(signed, id))
            .replace(
              '<samlp:Status>',
              `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`,
            );
        },
      });
      const { message } = await refusal(form);
      expect(message).toMatch(/SAML Assertion is not valid/);
      expect(message).not.toMatch(/mallory/);
    });

    it('a signed response whose content was changed afterwards', async () => {
      const { form } = await startSignIn(person(), {
        sign: 'response',
        mutate: (xml) =>
          xml.replace(/(<saml:AttributeValue[^>]*>)[^<]*@[^<]*</, '$1mallory@attacker.example<'),
      });
      expect((await refusal(form)).message).toMatch(/signature/i);
    });

    it('a response with a DTD (XXE and entity expansion)', async () => {
      const { form } = await startSignIn(person(), {
        mutate: (xml) =>
          `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${xml.replace('Ada', '&x;')}`,
      });
      const { code, message } = await refusal(form);
      expect(code).toBe('validation_failed');
      expect(message).toMatch(/declares a DTD or entities/);
    });

    it('an address outside the provider’s domains', async () => {
      const { form } = await startSignIn(person({ email: 'someone@elsewhere.example' }));
      expect((await refusal(form)).message).toMatch(/outside its domains/);
    });

    it('an existing account that is not a member of the provider’s organization', async () => {
      const email = `taken-${kind}@${domain}`;
      const { error } = await server.service().auth.admin.createUser({
        email,
        password: 'a long enough passphrase',
        email_confirm: true,
      });
      expect(error).toBeNull();
      const { form } = await startSignIn(person({ email }));
      const { code, message } = await refusal(form);
      expect(code).toBe('email_exists');
      expect(message).toMatch(/not a member of this identity provider's organization/);
    });

    it('a domain no provider claims, through supabase-js', async () => {
      const client = browserLikeClient(server);
      const { error } = await client.auth.signInWithSSO({ domain: 'nobody.example' });
      expect(error).toMatchObject({ status: 404, code: 'sso_provider_not_found' });
    });
  });

  describe('the admin API', () => {
    it('refuses callers without the service role', async () => {
      const response = await fetch(`${server.url}/auth/v1/admin/sso/providers`, {
        headers: { apikey: server.anonKey, authorization: `Bearer ${server.anonKey}` },
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'not_admin' });
    });

    it('refuses metadata that does not parse, declares entities, or cannot be fetched', async () => {
      const notXml = await admin('POST', '', { type: 'saml', metadata_xml: 'this is not XML' });
      expect(notXml).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
      expect(notXml.body.message).toMatch(/SAML Metadata is not well-formed XML/);
      const laughs = await admin('POST', '', {
        type: 'saml',
        metadata_xml:
          '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><EntityDescriptor entityID="&lol2;"/>',
      });
      expect(laughs.status).toBe(400);
      expect(laughs.body.message).toMatch(/declares a DTD or entities/);
      const noIdp = await admin('POST', '', {
        type: 'saml',
        metadata_xml:
          '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="x"/>',
      });
      expect(noIdp.body.message).toMatch(/does not contain any IDPSSODescriptor/);
      const missing = await admin('POST', '', {
        type: 'saml',
        metadata_url: `${idp.url}/nothing-here`,
      });
      expect(missing).toMatchObject({ status: 400, body: { code: 'saml_metadata_fetch_failed' } });
      const privateHost = await admin('POST', '', {
        type: 'saml',
        metadata_url: 'https://127.0.0.2/metadata',
      });
      expect(privateHost.body.message).toMatch(/loopback address/);
      const plain = await admin('POST', '', {
        type: 'saml',
        metadata_url: 'http://idp.example/metadata',
      });
      expect(plain.body.message).toBe('metadata_url is not a HTTPS URL');
      const wrongType = await admin('POST', '', { type: 'oidc', metadata_xml: idp.metadataXml });
      expect(wrongType.body.message).toBe("Only 'saml' supported for SSO provider type");
    });

    it('refuses a domain another organization claims, and the same IdP twice', async () => {
      const other = await startSamlIdp({ name: 'Other IdP' });
      try {
        const org = await insertRow<{ id: string }>(server.service(), 'organizations', {
          name: 'Other College',
          slug: unique('other-college'),
        });
        const claimed = await admin('POST', '', {
          type: 'saml',
          metadata_xml: other.metadataXml,
          domains: [domain.toUpperCase()],
          organization_id: org.id,
        });
        expect(claimed).toMatchObject({ status: 400, body: { code: 'sso_domain_already_exists' } });
        expect(claimed.body.message).toBe(
          `SSO Domain '${domain}' is already assigned to another organization’s identity provider`,
        );
        const twice = await admin('POST', '', { type: 'saml', metadata_xml: idp.metadataXml });
        expect(twice).toMatchObject({ status: 422, body: { code: 'saml_idp_already_exists' } });
      } finally {
        await other.close();
      }
    });

    it('gets, updates, refuses another entity’s metadata, and deletes', async () => {
      const other = await startSamlIdp({ name: 'Lifecycle IdP' });
      try {
        const created = await admin('POST', '', {
          type: 'saml',
          metadata_xml: other.metadataXml,
          domains: [`life-${kind}.example`],
        });
        expect(created.status).toBe(201);
        const id = created.body.id as string;
        const got = await admin('GET', `/${id}`);
        expect(got.body).toMatchObject({ id, saml: { entity_id: other.entityId } });
        expect((got.body.saml as { metadata_xml: string }).metadata_xml).toContain(other.entityId);
        const updated = await admin('PUT', `/${id}`, {
          domains: [`life-${kind}.example`, `life2-${kind}.example`],
          attribute_mapping: { keys: { email: { name: 'mail' } } },
        });
        expect(updated.status).toBe(200);
        expect(updated.body).toMatchObject({
          domains: [{ domain: `life-${kind}.example` }, { domain: `life2-${kind}.example` }],
          saml: { attribute_mapping: { keys: { email: { name: 'mail' } } } },
        });
        const mismatch = await admin('PUT', `/${id}`, { metadata_xml: idp.metadataXml });
        expect(mismatch).toMatchObject({ status: 400, body: { code: 'saml_entity_id_mismatch' } });
        const badMapping = await admin('PUT', `/${id}`, {
          attribute_mapping: { keys: { email: 'mail' } },
        });
        expect(badMapping.body.message).toMatch(/attribute_mapping.keys.email must be an object/);
        expect((await admin('DELETE', `/${id}`)).status).toBe(200);
        expect(await admin('GET', `/${id}`)).toMatchObject({
          status: 404,
          body: { code: 'sso_provider_not_found' },
        });
      } finally {
        await other.close();
      }
    });
  });
});
