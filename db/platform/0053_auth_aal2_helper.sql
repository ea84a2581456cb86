-- For RLS on sensitive tables: true when the caller's token is aal2, or when the caller has no
-- verified MFA factor (nothing more to ask of them). Supabase's documented policy, as one call:
--   create policy "mfa" on t as restrictive to authenticated using (auth.aal2_if_enrolled());
-- Security definer because callers cannot read auth.mfa_factors themselves.
create or replace function auth.aal2_if_enrolled() returns boolean
language sql stable security definer
set search_path = ''
as $$
  select coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = auth.uid() and f.status = 'verified'
    )
$$;
revoke all on function auth.aal2_if_enrolled() from public;
grant execute on function auth.aal2_if_enrolled() to anon, authenticated, service_role;
