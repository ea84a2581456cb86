-- Badges landed with the learner's progress (0441) after the audit log's first attachments
-- (0701): an award is a change to a learner's record worth an audit entry. XP events and study
-- time are left unaudited for the reasons tests/integration/audit-log.test.ts states.
select audit.attach('public.user_badges', 'providing the learning service', 'contract');
