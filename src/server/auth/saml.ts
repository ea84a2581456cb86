/**
 * SAML 2.0 service provider (decision 0032): @node-saml/node-saml makes the AuthnRequest
 * (HTTP-Redirect binding) and verifies responses (HTTP-POST binding) against the IdP's
 * certificates from its metadata. Around it, checks node-saml leaves to its caller:
 *
 * - no DTD at all, in responses or metadata (XXE and entity expansion need one; SAML needs
 *   none), refused before any parser sees the document;
 * - the response's Destination is our ACS and its Issuer the provider the sign-in started with;
 * - InResponseTo names the one request the RelayState stands for, which the caller has already
 *   consumed (single use, with its creation time for the expiry);
 * - the assertion's ID is returned so the caller can accept it once.
 */
import { X509Certificate } from 'node:crypto';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import parser from 'fast-xml-parser';

export const SAML_NAMEID_FORMATS = [
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
] as const;

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';

/** Metadata documents and responses beyond this are refused unread. */
export const MAX_SAML_XML_BYTES = 512 * 1024;

/** A document or message that cannot be used, with a message saying why. */
export class SamlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamlError';
  }
}

export interface IdpMetadata {
  entityId: string;
  /** Where the AuthnRequest goes (HTTP-Redirect binding). */
  ssoUrl: string;
  /** Signing certificates, base64 DER as in the metadata. */
  certificates: string[];
}

/** Our side of the exchange; both are URLs under the auth service's public base. */
export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
}

export interface SamlProviderSettings {
  entityId: string;
  metadataXml: string;
  nameIdFormat: string | null;
}

type XmlNode = Record<string, unknown>;

function refuseDtd(xml: string, what: string): void {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new SamlError(
      `${what} declares a DTD or entities (<!DOCTYPE or <!ENTITY>): SAML needs neither, and they can read server files or expand without end, so it is refused`,
    );
  }
}

function parseXml(xml: string, what: string): XmlNode {
  if (Buffer.byteLength(xml) > MAX_SAML_XML_BYTES) {
    throw new SamlError(`${what} is larger than ${MAX_SAML_XML_BYTES / 1024} KB`);
  }
  refuseDtd(xml, what);
  const valid = parser.validate(xml);
  if (valid !== true) {
    throw new SamlError(
      `${what} is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`,
    );
  }
  return parser.parse(xml, {
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    ignoreNameSpace: true,
    parseAttributeValue: false,
    parseNodeValue: false,
    trimValues: true,
  }) as XmlNode;
}

function list(value: unknown): XmlNode[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]) as XmlNode[];
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (value && typeof value === 'object' && '#text' in value) return String(value['#text']).trim();
  return '';
}

/** Reads an IdP's metadata: its entity ID, redirect-binding SSO URL and signing certificates. */
export function parseIdpMetadata(xml: string): IdpMetadata {
  if (typeof xml !== 'string' || xml.trim() === '') {
    throw new SamlError('SAML Metadata is empty');
  }
  const doc = parseXml(xml, 'SAML Metadata');
  let entities = list(doc.EntityDescriptor);
  if (entities.length === 0) entities = list((doc.EntitiesDescriptor as XmlNode)?.EntityDescriptor);
  if (entities.length === 0) {
    throw new SamlError('SAML Metadata does not contain an EntityDescriptor');
  }
  if (entities.length > 1) {
    throw new SamlError('SAML Metadata describes several entities; register each IdP on its own');
  }
  const entity = entities[0]!;
  const entityId = text(entity['@_entityID']);
  if (!entityId) throw new SamlError('SAML Metadata does not contain an EntityID');
  const descriptors = list(entity.IDPSSODescriptor);
  if (descriptors.length < 1) {
    throw new SamlError('SAML Metadata does not contain any IDPSSODescriptor');
  }
  if (descriptors.length > 1) {
    throw new SamlError('SAML Metadata contains multiple IDPSSODescriptors');
  }
  const idp = descriptors[0]!;
  const sso = list(idp.SingleSignOnService).find((s) => s['@_Binding'] === REDIRECT_BINDING);
  const ssoUrl = text(sso?.['@_Location']);
  if (!ssoUrl) {
    throw new SamlError(
      'SAML Metadata names no SingleSignOnService with the HTTP-Redirect binding, which sign-in uses',
    );
  }
  try {
    const url = new URL(ssoUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new SamlError(
      `SAML Metadata's SingleSignOnService location "${ssoUrl}" is not a web address`,
    );
  }
  const certificates: string[] = [];
  for (const key of list(idp.KeyDescriptor)) {
    const use = text(key['@_use']);
    if (use && use !== 'signing') continue;
    for (const keyInfo of list(key.KeyInfo)) {
      for (const data of list(keyInfo.X509Data)) {
        for (const cert of list(data.X509Certificate)) {
          const value = text(cert).replace(/\s+/g, '');
          try {
            new X509Certificate(Buffer.from(value, 'base64'));
          } catch {
            throw new SamlError('SAML Metadata contains a signing certificate that does not parse');
          }
          certificates.push(value);
        }
      }
    }
  }
  if (certificates.length === 0) {
    throw new SamlError(
      'SAML Metadata contains no signing certificate (KeyDescriptor with an X509Certificate), so no response could be verified',
    );
  }
  return { entityId, ssoUrl, certificates };
}

function pem(certificate: string): string {
  const lines = certificate.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** node-saml keeps request IDs in a cache it asks; ours answers only for the consumed request. */
function oneRequestCache(request?: { id: string; createdAt: Date }): CacheProvider {
  return {
    saveAsync: async () => null,
    getAsync: async (key) =>
      request && key === request.id ? request.createdAt.toISOString() : null,
    removeAsync: async () => null,
  };
}

function samlFor(
  provider: SamlProviderSettings,
  sp: ServiceProvider,
  options: {
    clockSkewMs: number;
    requestTtlMs: number;
    request?: { id: string; createdAt: Date };
    requestId?: string;
  },
): SAML {
  const idp = parseIdpMetadata(provider.metadataXml);
  return new SAML({
    entryPoint: idp.ssoUrl,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    audience: sp.entityId,
    idpCert: idp.certificates.map(pem),
    idpIssuer: idp.entityId,
    identifierFormat: provider.nameIdFormat ?? SAML_NAMEID_FORMATS[0],
    disableRequestedAuthnContext: true,
    // Either the response or the assertion must carry a valid signature (node-saml verifies
    // the assertion whenever the response is not signed).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: options.clockSkewMs,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: options.requestTtlMs,
    cacheProvider: oneRequestCache(options.request),
    generateUniqueId: () => options.requestId ?? '',
  });
}

/** The IdP's URL carrying a fresh AuthnRequest with `requestId` and the RelayState. */
export async function authnRequestUrl(
  provider: SamlProviderSettings,
  sp: ServiceProvider,
  input: { requestId: string; relayState: string; clockSkewMs: number; requestTtlMs: number },
): Promise<string> {
  const saml = samlFor(provider, sp, input);
  return saml.getAuthorizeUrlAsync(input.relayState, undefined, {});
}

export interface SamlLogin {
  issuer: string;
  nameId: string;
  nameIdFormat: string;
  assertionId: string;
  /** When the assertion stops being valid; its ID is remembered until then. */
  notOnOrAfter: Date;
  attributes: Record<string, string[]>;
}

/** What the response says before any signature is checked: only used to pick and compare. */
export interface ResponseEnvelope {
  xml: string;
  issuer: string;
  destination: string;
  inResponseTo: string;
  signed: boolean;
}

/** Decodes the posted SAMLResponse and reads its envelope, refusing DTDs and bad XML. */
export function readResponseEnvelope(samlResponse: string): ResponseEnvelope {
  const compact = samlResponse.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw new SamlError('SAMLResponse is not a valid Base64 string');
  }
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  const doc = parseXml(xml, 'The SAML response');
  const response = doc.Response as XmlNode | undefined;
  if (!response || typeof response !== 'object' || Array.isArray(response)) {
    throw new SamlError('SAMLResponse is not a SAML Response');
  }
  return {
    xml,
    issuer: text(list(response.Issuer)[0]),
    destination: text(response['@_Destination']),
    inResponseTo: text(response['@_InResponseTo']),
    signed: list(response.Signature).length > 0,
  };
}

function attributesOf(profile: Profile): Record<string, string[]> {
  const skip = new Set([
    'issuer',
    'inResponseTo',
    'sessionIndex',
    'nameID',
    'nameIDFormat',
    'nameQualifier',
    'spNameQualifier',
    'getAssertionXml',
    'getAssertion',
    'getSamlResponseXml',
    'attributes',
  ]);
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(profile)) {
    if (skip.has(name) || typeof value === 'function') continue;
    const values = (Array.isArray(value) ? value : [value]).filter(
      (v): v is string => typeof v === 'string',
    );
    if (values.length > 0) out[name] = values;
  }
  return out;
}

function assertionFacts(profile: Profile): { id: string; notOnOrAfter: Date | undefined } {
  const doc = profile.getAssertion?.() as
    | { Assertion?: { $?: { ID?: string }; Conditions?: Array<{ $?: { NotOnOrAfter?: string } }> } }
    | undefined;
  const assertion = doc?.Assertion;
  const notOnOrAfter = assertion?.Conditions?.[0]?.$?.NotOnOrAfter;
  return {
    id: assertion?.$?.ID ?? '',
    notOnOrAfter: notOnOrAfter ? new Date(notOnOrAfter) : undefined,
  };
}

/**
 * Verifies a response to the request `request` (already consumed by the caller) from
 * `provider`: signature on the response or the assertion with the provider's certificates,
 * Destination, Issuer, InResponseTo, audience, NotBefore/NotOnOrAfter with `clockSkewMs`.
 */
export async function verifySamlResponse(
  provider: SamlProviderSettings,
  sp: ServiceProvider,
  envelope: ResponseEnvelope,
  samlResponse: string,
  options: { request: { id: string; createdAt: Date }; clockSkewMs: number; requestTtlMs: number },
): Promise<SamlLogin> {
  if (envelope.destination && envelope.destination !== sp.acsUrl) {
    throw new SamlError(
      `the response is addressed to ${envelope.destination}, not to this service provider's ACS ${sp.acsUrl}`,
    );
  }
  if (envelope.signed && !envelope.destination) {
    throw new SamlError('a signed response must name its Destination');
  }
  if (envelope.issuer && envelope.issuer !== provider.entityId) {
    throw new SamlError(
      `the response was issued by ${envelope.issuer}, not by the identity provider the sign-in started with`,
    );
  }
  if (envelope.inResponseTo !== options.request.id) {
    throw new SamlError(
      envelope.inResponseTo
        ? 'InResponseTo does not name the request this sign-in sent'
        : 'InResponseTo is missing: only responses to a sign-in started here are accepted',
    );
  }
  const saml = samlFor(provider, sp, options);
  let profile: Profile | null;
  try {
    ({ profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    const message = (error as Error).message;
    // node-saml's words when every SubjectConfirmationData is outside its time window.
    if (/No valid subject confirmation/.test(message)) {
      throw new SamlError(
        `the assertion has expired or is not yet valid (its SubjectConfirmationData times, allowing ${options.clockSkewMs / 1000} s of clock skew)`,
      );
    }
    throw new SamlError(message);
  }
  if (!profile) throw new SamlError('the response carries no assertion');
  if (profile.issuer && profile.issuer !== provider.entityId) {
    throw new SamlError('the assertion was issued by another identity provider');
  }
  const facts = assertionFacts(profile);
  if (!facts.id) throw new SamlError('the assertion has no ID');
  const now = Date.now();
  const notOnOrAfter =
    facts.notOnOrAfter && facts.notOnOrAfter.getTime() > now
      ? facts.notOnOrAfter
      : new Date(now + options.requestTtlMs);
  return {
    issuer: provider.entityId,
    nameId: profile.nameID ?? '',
    nameIdFormat: profile.nameIDFormat ?? '',
    assertionId: facts.id,
    notOnOrAfter: new Date(notOnOrAfter.getTime() + options.clockSkewMs),
    attributes: attributesOf(profile),
  };
}

/** GoTrue's attribute mapping: `{ keys: { claim: { name, names, default, array } } }`. */
export interface AttributeMapping {
  keys?: Record<string, { name?: string; names?: string[]; default?: unknown; array?: boolean }>;
}

/**
 * The spec's attributes, email, firstName and lastName, under their common names; a
 * provider's own mapping of a key replaces its default.
 */
const DEFAULT_KEYS: NonNullable<AttributeMapping['keys']> = {
  email: {
    names: [
      'email',
      'mail',
      'emailAddress',
      'urn:oid:0.9.2342.19200300.100.1.3',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    ],
  },
  first_name: {
    names: [
      'firstName',
      'givenName',
      'urn:oid:2.5.4.42',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    ],
  },
  last_name: {
    names: [
      'lastName',
      'sn',
      'surname',
      'urn:oid:2.5.4.4',
      'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    ],
  },
};

/** Applies the mapping (over the defaults) to the assertion's attributes. */
export function mapAttributes(
  login: Pick<SamlLogin, 'attributes' | 'nameId' | 'nameIdFormat'>,
  mapping: AttributeMapping,
): Record<string, unknown> {
  const keys = { ...DEFAULT_KEYS, ...(mapping.keys ?? {}) };
  const claims: Record<string, unknown> = {};
  for (const [claim, rule] of Object.entries(keys)) {
    const names = [...(rule.name ? [rule.name] : []), ...(rule.names ?? [])];
    const values = names.map((n) => login.attributes[n]).find((v) => v && v.length > 0);
    if (values) claims[claim] = rule.array ? values : values[0];
    else if (rule.default !== undefined) claims[claim] = rule.default;
  }
  if (
    (typeof claims.email !== 'string' || claims.email === '') &&
    /^[^@\s]+@[^@\s]+$/.test(login.nameId)
  ) {
    claims.email = login.nameId;
  }
  if (typeof claims.email === 'string') claims.email = claims.email.trim().toLowerCase();
  return claims;
}

/** Whether the NameID can identify the same person at the next sign-in. */
export function isStableNameId(login: Pick<SamlLogin, 'nameId' | 'nameIdFormat'>): boolean {
  return login.nameId.trim() !== '' && login.nameIdFormat !== TRANSIENT;
}

/** Our SP metadata: entity ID, ACS (HTTP-POST) and the NameID formats we accept. */
export function serviceProviderMetadata(sp: ServiceProvider): string {
  const escape = (value: string) =>
    value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escape(sp.entityId)}">`,
    '  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">',
    ...SAML_NAMEID_FORMATS.map((f) => `    <md:NameIDFormat>${f}</md:NameIDFormat>`),
    `    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escape(sp.acsUrl)}" index="0" isDefault="true"/>`,
    '  </md:SPSSODescriptor>',
    '</md:EntityDescriptor>',
    '',
  ].join('\n');
}
