-- Library search reads each match's text vector once, not twice, and a lesson's from its row
-- (issue 12, decision 0175).
--
-- For a word in most texts (an organization admin's search over 1,000 courses), the planner
-- chose sequential scans of lesson_search and course_document_pages: it prices `@@` like any
-- operator, not knowing that each call unpacks a vector of about 10 KB from TOAST. The scan
-- then read every vector twice, once to test the match and once more to rank it. Through the
-- text index, a word's matches come from the index exactly (no recheck) and only ranking reads
-- each vector: half the pages read. Inside this function only, sequential scans are priced
-- out; the course-set and text-index plans for learners and instructors stay as they were.
-- What is found and how it is ranked are unchanged.

alter function learning.library_matches(tsquery, uuid) set enable_seqscan = off;

-- A lesson's vector (about 3 KB for a lesson of 300 words) is kept in its row rather than in
-- TOAST: fetching a vector out of line cost as much as ranking it. A vector too large for a
-- row still goes out of line, as PostgreSQL does for MAIN storage. Rows written before are
-- written again so that they move in (the concatenation with an empty vector is the same
-- vector, as a new value).
alter table public.lesson_search alter column search set storage main;
update public.lesson_search set search = search || ''::tsvector;
