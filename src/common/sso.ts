/**
 * The organization admin's single sign-on screen and its endpoint (/functions/v1/org-sso,
 * decision 0034) share these shapes. Providers travel in GoTrue's admin API shape.
 */
export interface SsoProvider {
  id: string;
  disabled: boolean;
  saml: {
    entity_id: string;
    metadata_url?: string;
    attribute_mapping: { keys?: Record<string, { name?: string; names?: string[] }> };
    name_id_format?: string;
  };
  domains: Array<{ domain: string }>;
  organization_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What the IdP's administrator needs from us, and the organization's providers. */
export interface SsoSettings {
  serviceProvider: { entityId: string; acsUrl: string; metadataUrl: string };
  providers: SsoProvider[];
}

/** A create or update from the screen: metadata by URL or pasted XML, domains, attribute names. */
export interface SsoProviderInput {
  metadata_url?: string;
  metadata_xml?: string;
  domains: string[];
  attribute_mapping: { keys: Record<string, { name: string }> };
}

/** The claims the screen maps, with the spec's attribute names as defaults. */
export const ssoMappedClaims = [
  { claim: 'email', label: 'Email attribute', fallback: 'email' },
  { claim: 'first_name', label: 'First name attribute', fallback: 'firstName' },
  { claim: 'last_name', label: 'Last name attribute', fallback: 'lastName' },
  { claim: 'role', label: 'Role attribute (optional)', fallback: '' },
] as const;
