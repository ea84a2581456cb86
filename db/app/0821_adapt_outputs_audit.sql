-- LE Adapt's exports and publications are acts of a person on learning material: audited like
-- the jobs they come from (0800). Webhook deliveries are themselves the delivery log (each
-- attempt with its status and response code, decision 0514), so they are not copied again.
select audit.attach('public.adapt_exports', 'providing the learning service', 'contract');
select audit.attach('public.adapt_publications', 'providing the learning service', 'contract');
