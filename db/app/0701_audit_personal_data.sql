-- Audit triggers on the tables that hold personal data (decision 0401). The tables left out,
-- and why, are listed in tests/integration/audit-log.test.ts, which fails when a table that
-- references auth.users has neither the trigger nor a reason.

select audit.attach('auth.users', 'account and sign-in', 'contract', array['last_sign_in_at']);
select audit.attach('auth.identities', 'account and sign-in', 'contract', array['last_sign_in_at']);
select audit.attach('auth.mfa_factors', 'account security', 'contract', array['last_used_at']);
select audit.attach('public.profiles', 'account profile', 'contract');
select audit.attach('public.user_roles', 'access control', 'contract');
select audit.attach('public.organizations', 'organization administration', 'contract');
select audit.attach('public.memberships', 'organization administration', 'contract');
select audit.attach('learning.account_suspensions', 'organization administration', 'contract');
select audit.attach('public.course_instructors', 'teaching assignments', 'contract');
select audit.attach('public.enrollments', 'providing the learning service', 'contract');
select audit.attach('public.lesson_progress', 'providing the learning service', 'contract');
select audit.attach('public.assessment_attempts', 'assessment and grading', 'contract');
select audit.attach('public.goals', 'providing the learning service', 'contract');
select audit.attach('public.notes', 'providing the learning service', 'contract');
select audit.attach('public.flashcards', 'providing the learning service', 'contract');
select audit.attach('public.course_posts', 'course discussion', 'contract');
select audit.attach('public.flashcard_decks', 'providing the learning service', 'contract');
select audit.attach('public.flashcard_reviews', 'providing the learning service', 'contract');
select audit.attach('public.highlights', 'providing the learning service', 'contract');
select audit.attach('public.user_preferences', 'account settings', 'contract');
select audit.attach('public.chat_sessions', 'study coach', 'contract');
select audit.attach('public.chat_messages', 'study coach', 'contract');
select audit.attach('public.coach_teaching_log', 'study coach', 'contract');
