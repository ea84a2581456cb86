-- Each SAML provider may belong to an organization (decision 0033): a first sign-in through it
-- makes the person a member of that organization. Deleting the organization deletes its
-- providers (and with them their domains and pending requests).
alter table auth.sso_providers
  add column organization_id uuid references public.organizations (id) on delete cascade;
create index sso_providers_organization on auth.sso_providers (organization_id);
