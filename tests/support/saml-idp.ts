/**
 * A SAML identity provider on loopback for tests: samlify in IdP mode with its own key pair,
 * made when it starts. `GET /metadata` is its metadata; `GET /sso` takes our AuthnRequest
 * (HTTP-Redirect binding), checks it with samlify against our SP metadata and answers the
 * auto-posting form a browser would get, for whoever `signIn()` named.
 *
 * Normal logins go through samlify's own `createLoginResponse`. To test refusals, a login may
 * change what the response says (audience, destination, times, IDs…), how it is signed, or
 * the signed XML itself; those responses are still signed with samlify's XML signature code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as validator from '@authenio/samlify-node-xmllint';
import * as samlify from 'samlify';
import { selfSignedCertificate, type TestKeyPair } from './self-signed-cert';

samlify.setSchemaValidator(validator);

const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const SIGNATURE_ALGORITHM = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const ASSERTION_XPATH = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";

export interface IdpUser {
  nameId: string;
  nameIdFormat?: string;
  /** SAML attributes by name, e.g. { email: 'a@b', firstName: 'Ada' }. */
  attributes: Record<string, string | string[]>;
}

export interface LoginOptions {
  /** 'samlify': samlify's own flow (signs the assertion, as our metadata asks). */
  sign?: 'samlify' | 'assertion' | 'response' | 'both' | 'none';
  audience?: string;
  destination?: string | null;
  issuer?: string;
  inResponseTo?: string;
  assertionId?: string;
  /** Seconds from now. */
  notBefore?: number;
  notOnOrAfter?: number;
  /** Sign with another key than the one in the metadata. */
  signingKey?: TestKeyPair;
  /** Applied to the signed XML (tampering, wrapping). */
  mutate?: (xml: string) => string;
}

export interface AcsForm {
  acs: string;
  SAMLResponse: string;
  RelayState: string;
}

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function attributeStatement(attributes: IdpUser['attributes']): string {
  const items = Object.entries(attributes).map(([name, value]) => {
    const values = (Array.isArray(value) ? value : [value])
      .map((v) => `<saml:AttributeValue xsi:type="xs:string">${escape(v)}</saml:AttributeValue>`)
      .join('');
    return `<saml:Attribute Name="${escape(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values}</saml:Attribute>`;
  });
  return items.length ? `<saml:AttributeStatement>${items.join('')}</saml:AttributeStatement>` : '';
}

export interface SamlIdp {
  url: string;
  entityId: string;
  metadataUrl: string;
  metadataXml: string;
  keys: TestKeyPair;
  /**
   * Compiles samlify's schema validator (libxml2 in WebAssembly) once. It holds the thread for
   * many seconds on a busy machine, so await it on its own in `beforeAll`, before the server
   * (which shares the thread with PGlite) starts; `authenticate` waits for it too.
   */
  warmUp(): Promise<void>;
  /** Who signs in at the next `GET /sso`, and how the response is made. */
  signIn(user: IdpUser, options?: LoginOptions): void;
  /** Follows the URL from `POST /auth/v1/sso` to the IdP and returns the form it posts. */
  authenticate(ssoUrl: string): Promise<AcsForm>;
  close(): Promise<void>;
}

export async function startSamlIdp(options: { name?: string } = {}): Promise<SamlIdp> {
  const keys = selfSignedCertificate(options.name ?? 'Loopback test IdP');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${url}/metadata`;
  const idp = samlify.IdentityProvider({
    entityID: entityId,
    signingCert: keys.certificatePem,
    privateKey: keys.privateKey,
    wantAuthnRequestsSigned: false,
    nameIDFormat: [PERSISTENT],
    requestSignatureAlgorithm: SIGNATURE_ALGORITHM,
    singleSignOnService: [
      { Binding: samlify.Constants.namespace.binding.redirect, Location: `${url}/sso` },
    ],
  });
  const metadataXml = idp.getMetadata();
  let compiled: Promise<void> | undefined;
  const warmUp = () =>
    (compiled ??= validator.validate(metadataXml).then(
      () => undefined,
      () => undefined,
    ));
  let next: { user: IdpUser; options: LoginOptions } | undefined;
  const spMetadata = new Map<string, string>();

  async function serviceProvider(acs: string) {
    const metadataUrl = acs.replace(/\/acs$/, '/metadata');
    let xml = spMetadata.get(metadataUrl);
    if (!xml) {
      const response = await fetch(metadataUrl);
      if (!response.ok) throw new Error(`SP metadata ${metadataUrl}: ${response.status}`);
      xml = await response.text();
      spMetadata.set(metadataUrl, xml);
    }
    return samlify.ServiceProvider({ metadata: xml });
  }

  async function respond(query: URLSearchParams): Promise<AcsForm> {
    if (!next) throw new Error('nobody is signing in at the test IdP');
    const { user, options: login } = next;
    next = undefined;
    // The AuthnRequest names the ACS; samlify needs the SP to parse it, so read it first.
    const inflated = await import('node:zlib').then((zlib) =>
      zlib.inflateRawSync(Buffer.from(query.get('SAMLRequest') ?? '', 'base64')).toString('utf8'),
    );
    const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(inflated)?.[1];
    if (!acs) throw new Error(`AuthnRequest without an ACS URL: ${inflated}`);
    const sp = await serviceProvider(acs);
    const parsed = await idp.parseLoginRequest(sp, 'redirect', {
      query: Object.fromEntries(query),
    });
    const requestId = String((parsed.extract.request as Record<string, string>).id);
    const relayState = query.get('RelayState') ?? '';
    const now = Date.now();
    const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    const assertionId = login.assertionId ?? `_${crypto.randomUUID()}`;
    const responseId = `_${crypto.randomUUID()}`;
    const values = {
      ID: responseId,
      AssertionID: assertionId,
      Destination: login.destination === null ? undefined : (login.destination ?? acs),
      Audience: login.audience ?? sp.entityMeta.getEntityID(),
      SubjectRecipient: acs,
      Issuer: login.issuer ?? entityId,
      IssueInstant: at(0),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: at(login.notBefore ?? -5),
      ConditionsNotOnOrAfter: at(login.notOnOrAfter ?? 300),
      SubjectConfirmationDataNotOnOrAfter: at(login.notOnOrAfter ?? 300),
      NameIDFormat: user.nameIdFormat ?? PERSISTENT,
      NameID: user.nameId,
      InResponseTo: login.inResponseTo ?? requestId,
      AuthnStatement: '@@AUTHN@@',
      AttributeStatement: '@@ATTRIBUTES@@',
    };
    const xml = samlify.SamlLib.replaceTagsByValue(
      samlify.SamlLib.defaultLoginResponseTemplate.context,
      values,
    )
      .replace(
        '@@AUTHN@@',
        `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${assertionId}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      )
      .replace('@@ATTRIBUTES@@', attributeStatement(user.attributes));

    let samlResponse: string;
    const mode = login.sign ?? 'samlify';
    if (mode === 'samlify' && !login.signingKey && !login.mutate) {
      const result = await idp.createLoginResponse(
        sp,
        { extract: parsed.extract },
        'post',
        { email: user.nameId },
        {
          relayState,
          customTagReplacement: () => ({ id: responseId, context: xml }),
        },
      );
      samlResponse = result.context;
    } else {
      const key = login.signingKey ?? keys;
      const signing = {
        privateKey: key.privateKey,
        signingCert: key.certificate,
        signatureAlgorithm: SIGNATURE_ALGORITHM,
        isBase64Output: false,
      };
      let signed = xml;
      if (mode === 'assertion' || mode === 'both' || mode === 'samlify') {
        signed = samlify.SamlLib.constructSAMLSignature({
          ...signing,
          rawSamlMessage: signed,
          referenceTagXPath: ASSERTION_XPATH,
          signatureConfig: {
            prefix: 'ds',
            location: {
              reference: `${ASSERTION_XPATH}/*[local-name(.)='Issuer']`,
              action: 'after',
            },
          },
        });
      }
      if (mode === 'response' || mode === 'both') {
        signed = samlify.SamlLib.constructSAMLSignature({
          ...signing,
          rawSamlMessage: signed,
          isMessageSigned: true,
          signatureConfig: {
            prefix: 'ds',
            location: {
              reference: "/*[local-name(.)='Response']/*[local-name(.)='Issuer']",
              action: 'after',
            },
          },
        });
      }
      if (login.mutate) signed = login.mutate(signed);
      samlResponse = Buffer.from(signed).toString('base64');
    }
    return { acs, SAMLResponse: samlResponse, RelayState: relayState };
  }

  server.on('request', (req, res) => {
    const requestUrl = new URL(req.url ?? '/', url);
    if (requestUrl.pathname === '/metadata') {
      res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
      res.end(metadataXml);
      return;
    }
    if (requestUrl.pathname === '/sso') {
      respond(requestUrl.searchParams).then(
        (form) => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escape(form.acs)}">` +
              `<input type="hidden" name="SAMLResponse" value="${escape(form.SAMLResponse)}">` +
              `<input type="hidden" name="RelayState" value="${escape(form.RelayState)}">` +
              '<noscript><button type="submit">Continue</button></noscript></form></body></html>',
          );
        },
        (error: Error) => {
          res.writeHead(400, { 'content-type': 'text/plain' });
          res.end(`The test IdP refused the request: ${error.message}`);
        },
      );
      return;
    }
    res.writeHead(404);
    res.end();
  });

  return {
    url,
    entityId,
    metadataUrl: `${url}/metadata`,
    metadataXml,
    keys,
    warmUp,
    signIn(user, loginOptions = {}) {
      next = { user, options: loginOptions };
    },
    async authenticate(ssoUrl) {
      await warmUp();
      const response = await fetch(ssoUrl);
      const html = await response.text();
      if (!response.ok) throw new Error(html);
      const field = (name: string) =>
        new RegExp(`name="${name}" value="([^"]*)"`)
          .exec(html)?.[1]
          ?.replace(/&quot;/g, '"')
          .replace(/&gt;/g, '>')
          .replace(/&lt;/g, '<')
          .replace(/&amp;/g, '&') ?? '';
      const acs = /action="([^"]+)"/.exec(html)?.[1] ?? '';
      return { acs, SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Posts the form as the browser would; returns where the ACS sends the browser. */
export async function postToAcs(
  form: Pick<AcsForm, 'acs' | 'SAMLResponse' | 'RelayState'>,
): Promise<{ status: number; location: URL }> {
  const response = await fetch(form.acs, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: form.SAMLResponse, RelayState: form.RelayState }),
  });
  const location = response.headers.get('location');
  if (!location)
    throw new Error(`ACS answered ${response.status} without a redirect: ${await response.text()}`);
  return { status: response.status, location: new URL(location) };
}
