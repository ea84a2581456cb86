/**
 * SAML identity providers as GoTrue's admin API shows them (`/admin/sso/providers`), each with
 * its domains and, ours, the organization a first sign-in joins. One module for the admin API
 * and the organization admin's screen, so both validate alike.
 */
import { memberRoles } from '../../common/org-people';
import type { Queryable } from '../db/types';
import { AuthError, validation } from './errors';
import { fetchSamlMetadata, MetadataFetchError } from './saml-metadata-fetch';
import { parseIdpMetadata, SAML_NAMEID_FORMATS, SamlError, type AttributeMapping } from './saml';

export interface SsoProviderRow {
  id: string;
  disabled: boolean;
  entity_id: string;
  metadata_xml: string;
  metadata_url: string | null;
  attribute_mapping: AttributeMapping;
  name_id_format: string | null;
  organization_id: string | null;
  created_at: Date;
  updated_at: Date;
  domains: string[];
}

/** The provider in GoTrue's JSON shape, plus `organization_id`. */
export function providerJson(row: SsoProviderRow, options: { withXml: boolean }) {
  return {
    id: row.id,
    disabled: row.disabled,
    saml: {
      entity_id: row.entity_id,
      ...(options.withXml ? { metadata_xml: row.metadata_xml } : {}),
      ...(row.metadata_url ? { metadata_url: row.metadata_url } : {}),
      attribute_mapping: row.attribute_mapping,
      ...(row.name_id_format ? { name_id_format: row.name_id_format } : {}),
    },
    domains: row.domains.map((domain) => ({ domain })),
    organization_id: row.organization_id,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

const SELECT = `select p.id, p.disabled, p.entity_id, p.metadata_xml, p.metadata_url,
    p.attribute_mapping, p.name_id_format, p.organization_id, p.created_at, p.updated_at,
    coalesce((select array_agg(d.domain order by d.domain) from auth.sso_domains d
              where d.sso_provider_id = p.id), '{}') as domains
  from auth.sso_providers p`;

export async function listProviders(
  db: Queryable,
  filter: { organizationId?: string } = {},
): Promise<SsoProviderRow[]> {
  const { rows } = await db.query<SsoProviderRow & Record<string, unknown>>(
    `${SELECT} where $1::uuid is null or p.organization_id = $1::uuid order by p.created_at, p.id`,
    [filter.organizationId ?? null],
  );
  return rows;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findProvider(
  db: Queryable,
  id: unknown,
): Promise<SsoProviderRow | undefined> {
  if (typeof id !== 'string' || !UUID.test(id)) return undefined;
  const { rows } = await db.query<SsoProviderRow & Record<string, unknown>>(
    `${SELECT} where p.id = $1`,
    [id],
  );
  return rows[0];
}

export async function findProviderByDomain(
  db: Queryable,
  domain: string,
): Promise<SsoProviderRow | undefined> {
  const { rows } = await db.query<SsoProviderRow & Record<string, unknown>>(
    `${SELECT} where p.id = (select sso_provider_id from auth.sso_domains where domain = $1)`,
    [domain.trim().toLowerCase()],
  );
  return rows[0];
}

export async function findProviderByEntityId(
  db: Queryable,
  entityId: string,
): Promise<SsoProviderRow | undefined> {
  const { rows } = await db.query<SsoProviderRow & Record<string, unknown>>(
    `${SELECT} where p.entity_id = $1`,
    [entityId],
  );
  return rows[0];
}

export const notFoundProvider = () =>
  new AuthError(404, 'sso_provider_not_found', 'SSO Identity Provider not found');

const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

export function normalizeDomain(value: unknown): string {
  if (typeof value !== 'string') throw validation('domains must be a list of domain names');
  const domain = value.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
  if (!DOMAIN.test(domain)) {
    throw validation(`"${value}" is not a domain name such as university.example`);
  }
  return domain;
}

/** Checks an attribute mapping's shape, GoTrue's: `{ keys: { claim: { name|names, default, array } } }`. */
export function parseAttributeMapping(value: unknown): AttributeMapping {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw validation(
      'attribute_mapping must be an object such as {"keys": {"email": {"name": "mail"}}}',
    );
  }
  const keys = (value as { keys?: unknown }).keys;
  if (keys === undefined || keys === null) return {};
  if (typeof keys !== 'object' || Array.isArray(keys)) {
    throw validation('attribute_mapping.keys must be an object of claim names');
  }
  const out: NonNullable<AttributeMapping['keys']> = {};
  for (const [claim, rule] of Object.entries(keys as Record<string, unknown>)) {
    if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(claim)) {
      throw validation(`attribute_mapping key "${claim}" is not a valid claim name`);
    }
    if (!rule || typeof rule !== 'object' || Array.isArray(rule)) {
      throw validation(`attribute_mapping.keys.${claim} must be an object with "name" or "names"`);
    }
    const { name, names, array } = rule as Record<string, unknown>;
    const fallback = (rule as Record<string, unknown>).default;
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '')) {
      throw validation(`attribute_mapping.keys.${claim}.name must be a non-empty string`);
    }
    if (
      names !== undefined &&
      (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || n.trim() === ''))
    ) {
      throw validation(`attribute_mapping.keys.${claim}.names must be a list of attribute names`);
    }
    if (array !== undefined && typeof array !== 'boolean') {
      throw validation(`attribute_mapping.keys.${claim}.array must be true or false`);
    }
    if (name === undefined && names === undefined && fallback === undefined) {
      throw validation(`attribute_mapping.keys.${claim} needs "name", "names" or "default"`);
    }
    if (claim === 'role' && typeof fallback === 'string' && !isMemberRole(fallback)) {
      throw validation(
        `attribute_mapping.keys.role.default must be one of the roles an organization gives: ${memberRoles.join(', ')}`,
      );
    }
    out[claim] = {
      ...(typeof name === 'string' ? { name: name.trim() } : {}),
      ...(Array.isArray(names) ? { names: (names as string[]).map((n) => n.trim()) } : {}),
      ...(fallback !== undefined ? { default: fallback } : {}),
      ...(array ? { array: true } : {}),
    };
  }
  return { keys: out };
}

export function isMemberRole(value: unknown): value is (typeof memberRoles)[number] {
  return typeof value === 'string' && (memberRoles as readonly string[]).includes(value);
}

/** What a create or update asks for, validated as GoTrue does. */
export interface ProviderParams {
  metadataXml?: string;
  metadataUrl?: string;
  domains?: string[];
  attributeMapping?: AttributeMapping;
  /** `null` clears it on update. */
  nameIdFormat?: string | null;
  organizationId?: string | null;
}

export function parseProviderParams(
  body: Record<string, unknown>,
  forUpdate: boolean,
): ProviderParams {
  const str = (key: string): string | undefined => {
    const value = body[key];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw validation(`${key} must be a string`);
    return value;
  };
  const type = str('type');
  if (!forUpdate && type !== 'saml') {
    throw validation("Only 'saml' supported for SSO provider type");
  }
  const metadataUrl = str('metadata_url');
  const metadataXml = str('metadata_xml');
  if (metadataUrl && metadataXml) {
    throw validation('Only one of metadata_xml or metadata_url needs to be set');
  }
  if (!forUpdate && !metadataUrl && !metadataXml) {
    throw validation('Either metadata_xml or metadata_url must be set');
  }
  if (metadataUrl) {
    try {
      new URL(metadataUrl);
    } catch {
      throw validation('metadata_url is not a valid URL');
    }
  }
  let domains: string[] | undefined;
  if (body.domains !== undefined && body.domains !== null) {
    if (!Array.isArray(body.domains)) throw validation('domains must be a list of domain names');
    domains = [...new Set(body.domains.map(normalizeDomain))];
    if (domains.length > 50) throw validation('At most 50 domains per provider');
  }
  const nameIdRaw = body.name_id_format;
  let nameIdFormat: string | null | undefined;
  if (nameIdRaw === '' || nameIdRaw === null) nameIdFormat = forUpdate ? null : undefined;
  else if (nameIdRaw !== undefined) {
    if (
      typeof nameIdRaw !== 'string' ||
      !(SAML_NAMEID_FORMATS as readonly string[]).includes(nameIdRaw)
    ) {
      throw validation(
        `name_id_format must be unspecified or one of ${SAML_NAMEID_FORMATS.join(', ')}`,
      );
    }
    nameIdFormat = nameIdRaw;
  }
  const orgRaw = body.organization_id;
  let organizationId: string | null | undefined;
  if (orgRaw === null) organizationId = null;
  else if (orgRaw !== undefined) {
    if (typeof orgRaw !== 'string' || !UUID.test(orgRaw)) {
      throw validation('organization_id must be the id of an organization');
    }
    organizationId = orgRaw;
  }
  return {
    metadataUrl,
    metadataXml,
    domains,
    attributeMapping:
      body.attribute_mapping === undefined
        ? undefined
        : parseAttributeMapping(body.attribute_mapping),
    nameIdFormat,
    organizationId,
  };
}

/** The metadata document a create or update brings, fetched if it names a URL, and parsed. */
async function metadataOf(params: ProviderParams, allowedTargets: readonly string[]) {
  let xml = params.metadataXml;
  if (!xml && params.metadataUrl) {
    try {
      xml = await fetchSamlMetadata(params.metadataUrl, allowedTargets);
    } catch (error) {
      if (error instanceof MetadataFetchError) {
        if (error.refused) throw validation(error.message);
        throw new AuthError(400, 'saml_metadata_fetch_failed', error.message);
      }
      throw error;
    }
  }
  if (!xml) return undefined;
  try {
    return { xml, parsed: parseIdpMetadata(xml) };
  } catch (error) {
    if (error instanceof SamlError) throw validation(error.message);
    throw error;
  }
}

async function assertOrganization(tx: Queryable, organizationId: string): Promise<void> {
  const { rows } = await tx.query('select 1 from public.organizations where id = $1', [
    organizationId,
  ]);
  if (rows.length === 0) throw validation('organization_id names no organization');
}

/**
 * Claims the domains for the provider. A domain another provider holds is refused, naming the
 * organization that holds it when it is another one: two organizations cannot both send
 * people of one domain to their IdP.
 */
async function claimDomains(
  tx: Queryable,
  providerId: string,
  organizationId: string | null,
  domains: string[],
): Promise<void> {
  for (const domain of domains) {
    const { rows } = await tx.query<{ id: string; organization_id: string | null }>(
      `select p.id, p.organization_id from auth.sso_domains d
         join auth.sso_providers p on p.id = d.sso_provider_id
       where d.domain = $1 and p.id <> $2`,
      [domain, providerId],
    );
    const holder = rows[0];
    if (holder) {
      const other =
        holder.organization_id && holder.organization_id !== organizationId
          ? 'another organization’s identity provider'
          : `another SSO identity provider (${holder.id})`;
      throw new AuthError(
        400,
        'sso_domain_already_exists',
        `SSO Domain '${domain}' is already assigned to ${other}`,
      );
    }
  }
  await tx.query(
    'delete from auth.sso_domains where sso_provider_id = $1 and not (domain = any($2::text[]))',
    [providerId, domains],
  );
  for (const domain of domains) {
    await tx.query(
      `insert into auth.sso_domains (sso_provider_id, domain) values ($1, $2)
       on conflict (domain) do nothing`,
      [providerId, domain],
    );
  }
}

export async function createProvider(
  tx: Queryable,
  params: ProviderParams,
  allowedTargets: readonly string[],
): Promise<string> {
  const metadata = (await metadataOf(params, allowedTargets))!;
  if (await findProviderByEntityId(tx, metadata.parsed.entityId)) {
    throw new AuthError(
      422,
      'saml_idp_already_exists',
      `SAML Identity Provider with this EntityID (${metadata.parsed.entityId}) already exists`,
    );
  }
  if (params.organizationId) await assertOrganization(tx, params.organizationId);
  const { rows } = await tx.query<{ id: string }>(
    `insert into auth.sso_providers (entity_id, metadata_xml, metadata_url, attribute_mapping,
       name_id_format, organization_id)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [
      metadata.parsed.entityId,
      metadata.xml,
      params.metadataUrl ?? null,
      JSON.stringify(params.attributeMapping ?? {}),
      params.nameIdFormat ?? null,
      params.organizationId ?? null,
    ],
  );
  const id = rows[0]!.id;
  await claimDomains(tx, id, params.organizationId ?? null, params.domains ?? []);
  return id;
}

export async function updateProvider(
  tx: Queryable,
  provider: SsoProviderRow,
  params: ProviderParams,
  allowedTargets: readonly string[],
): Promise<void> {
  const metadata = await metadataOf(params, allowedTargets);
  if (metadata && metadata.parsed.entityId !== provider.entity_id) {
    throw new AuthError(
      400,
      'saml_entity_id_mismatch',
      `SAML Metadata can be updated only if the EntityID matches for the provider; expected '${provider.entity_id}' but got '${metadata.parsed.entityId}'`,
    );
  }
  const organizationId =
    params.organizationId === undefined ? provider.organization_id : params.organizationId;
  if (params.organizationId) await assertOrganization(tx, params.organizationId);
  await tx.query(
    `update auth.sso_providers set
       metadata_xml = coalesce($2, metadata_xml),
       metadata_url = case when $2::text is null then metadata_url else $3 end,
       attribute_mapping = coalesce($4::jsonb, attribute_mapping),
       name_id_format = case when $5 then $6 else name_id_format end,
       organization_id = $7,
       updated_at = now()
     where id = $1`,
    [
      provider.id,
      metadata?.xml ?? null,
      params.metadataUrl ?? null,
      params.attributeMapping ? JSON.stringify(params.attributeMapping) : null,
      params.nameIdFormat !== undefined,
      params.nameIdFormat ?? null,
      organizationId,
    ],
  );
  if (params.domains) await claimDomains(tx, provider.id, organizationId, params.domains);
}

export async function deleteProvider(tx: Queryable, id: string): Promise<void> {
  await tx.query('delete from auth.sso_providers where id = $1', [id]);
}
