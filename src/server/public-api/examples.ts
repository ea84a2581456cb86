/**
 * Examples of the public API in curl and supabase-js, shown in the OpenAPI document (Scalar
 * shows `x-codeSamples` beside each operation). `tests/integration/public-api-examples.test.ts`
 * runs every one against a running server, so none can go stale.
 *
 * Variables: `$API_URL`, `$LYCEUM_API_KEY` (an organization key), `$ORG_ID`, `$COURSE_ID`,
 * `$USER_ID` (a member of the organization); in supabase-js the same names, and `supabase`, a
 * client made with `createClient(API_URL, LYCEUM_API_KEY)`.
 */

export interface ApiExample {
  /** `method path` of the operation, as in the document. */
  operation: string;
  title: string;
  curl: string;
  js: string;
}

const auth = '  -H "apikey: $LYCEUM_API_KEY" \\\n  -H "Authorization: Bearer $LYCEUM_API_KEY"';
const members = '/functions/v1/org-people/organizations/{org}/members';

/** In the order they run: each leaves the organization as the next expects it. */
export const apiExamples: ApiExample[] = [
  {
    operation: 'get /rest/v1/profiles',
    title: 'List the organization’s users, 100 at a time, with the total',
    curl: [
      'curl -sS --fail-with-body \\',
      '  "$API_URL/rest/v1/profiles?select=id,full_name&order=full_name.asc,id.asc&limit=100&offset=0" \\',
      auth + ' \\',
      '  -H "Prefer: count=exact"',
    ].join('\n'),
    js: [
      'const { data: users, count, error } = await supabase',
      "  .from('profiles')",
      "  .select('id, full_name', { count: 'exact' })",
      "  .order('full_name')",
      "  .order('id')",
      '  .range(0, 99);',
      'if (error) throw error;',
      'console.log(`${users.length} of ${count} users`);',
    ].join('\n'),
  },
  {
    operation: `post ${members}`,
    title: 'Create a user with a temporary password, as a student',
    curl: [
      'curl -sS --fail-with-body -X POST \\',
      '  "$API_URL/functions/v1/org-people/organizations/$ORG_ID/members" \\',
      auth + ' \\',
      '  -H "Content-Type: application/json" \\',
      `  -d '{"mode": "password", "email": "ada.lovelace@example.edu", "fullName": "Ada Lovelace",`,
      `       "password": "change-me-on-first-sign-in", "roles": [{"role": "learner", "boardId": null}]}'`,
    ].join('\n'),
    js: [
      'const { data: added, error } = await supabase.functions.invoke(',
      '  `org-people/organizations/${ORG_ID}/members`,',
      '  {',
      '    body: {',
      "      mode: 'password',",
      "      email: 'ada.lovelace@example.edu',",
      "      fullName: 'Ada Lovelace',",
      "      password: 'change-me-on-first-sign-in',",
      "      roles: [{ role: 'learner', boardId: null }],",
      '    },',
      '  },',
      ');',
      'if (error) throw error;',
      'console.log(added.outcome, added.member.userId);',
    ].join('\n'),
  },
  {
    operation: 'post /rest/v1/enrollments',
    title: 'Enrol a member in a course',
    curl: [
      'curl -sS --fail-with-body -X POST "$API_URL/rest/v1/enrollments" \\',
      auth + ' \\',
      '  -H "Content-Type: application/json" \\',
      '  -H "Prefer: return=representation" \\',
      `  -d "{\\"user_id\\": \\"$USER_ID\\", \\"course_id\\": \\"$COURSE_ID\\"}"`,
    ].join('\n'),
    js: [
      'const { data: enrolment, error } = await supabase',
      "  .from('enrollments')",
      '  .insert({ user_id: USER_ID, course_id: COURSE_ID })',
      '  .select()',
      '  .single();',
      'if (error) throw error;',
      'console.log(enrolment.id, enrolment.status);',
    ].join('\n'),
  },
  {
    operation: 'get /rest/v1/enrollments',
    title: 'Progress of every enrolment in a course',
    curl: [
      'curl -sS --fail-with-body \\',
      '  "$API_URL/rest/v1/enrollments?select=user_id,status,progress_percent,enrolled_at,completed_at&course_id=eq.$COURSE_ID" \\',
      auth,
    ].join('\n'),
    js: [
      'const { data: progress, error } = await supabase',
      "  .from('enrollments')",
      "  .select('user_id, status, progress_percent, enrolled_at, completed_at')",
      "  .eq('course_id', COURSE_ID);",
      'if (error) throw error;',
      'console.log(progress);',
    ].join('\n'),
  },
  {
    operation: 'get /rest/v1/assessment_attempts',
    title: 'Graded quiz results since a date',
    curl: [
      'curl -sS --fail-with-body \\',
      '  "$API_URL/rest/v1/assessment_attempts?select=user_id,assessment_id,score,status,submitted_at&submitted_at=gte.2025-09-01&order=submitted_at.desc" \\',
      auth,
    ].join('\n'),
    js: [
      'const { data: results, error } = await supabase',
      "  .from('assessment_attempts')",
      "  .select('user_id, assessment_id, score, status, submitted_at')",
      "  .gte('submitted_at', '2025-09-01')",
      "  .order('submitted_at', { ascending: false });",
      'if (error) throw error;',
      'console.log(results);',
    ].join('\n'),
  },
  {
    operation: 'post /rest/v1/rpc/get_organization_report',
    title: 'The progress-and-results report, one page of 100',
    curl: [
      'curl -sS --fail-with-body -X POST "$API_URL/rest/v1/rpc/get_organization_report" \\',
      auth + ' \\',
      '  -H "Content-Type: application/json" \\',
      `  -d "{\\"organization_id\\": \\"$ORG_ID\\", \\"page_size\\": 100}"`,
    ].join('\n'),
    js: [
      "const { data: report, error } = await supabase.rpc('get_organization_report', {",
      '  organization_id: ORG_ID,',
      '  page_size: 100,',
      '});',
      'if (error) throw error;',
      'console.log(report.map((row) => `${row.learner}: ${row.course} ${row.progress_percent} %`));',
    ].join('\n'),
  },
  {
    operation: 'get /functions/v1/org-export/organizations/{org}',
    title: 'Export every enrolment with progress and results as CSV',
    curl: [
      'curl -sS --fail-with-body \\',
      '  "$API_URL/functions/v1/org-export/organizations/$ORG_ID?format=csv" \\',
      auth + ' \\',
      '  -o organization-export.csv',
    ].join('\n'),
    js: [
      'const { data: csv, error } = await supabase.functions.invoke(',
      '  `org-export/organizations/${ORG_ID}?format=csv`,',
      "  { method: 'GET' },",
      ');',
      'if (error) throw error;',
      "console.log(csv.split('\\r\\n')[0]);",
    ].join('\n'),
  },
  {
    operation: `put ${members}/{user}/roles`,
    title: 'Make a member an instructor as well as a student',
    curl: [
      'curl -sS --fail-with-body -X PUT \\',
      '  "$API_URL/functions/v1/org-people/organizations/$ORG_ID/members/$USER_ID/roles" \\',
      auth + ' \\',
      '  -H "Content-Type: application/json" \\',
      `  -d '{"roles": [{"role": "learner", "boardId": null}, {"role": "instructor", "boardId": null}]}'`,
    ].join('\n'),
    js: [
      'const { data: changed, error } = await supabase.functions.invoke(',
      '  `org-people/organizations/${ORG_ID}/members/${USER_ID}/roles`,',
      '  {',
      "    method: 'PUT',",
      '    body: {',
      '      roles: [',
      "        { role: 'learner', boardId: null },",
      "        { role: 'instructor', boardId: null },",
      '      ],',
      '    },',
      '  },',
      ');',
      'if (error) throw error;',
      'console.log(changed.member.roles);',
    ].join('\n'),
  },
  {
    operation: `post ${members}/{user}/deactivate`,
    title: 'Deactivate a user (their data is kept)',
    curl: [
      'curl -sS --fail-with-body -X POST \\',
      '  "$API_URL/functions/v1/org-people/organizations/$ORG_ID/members/$USER_ID/deactivate" \\',
      auth,
    ].join('\n'),
    js: [
      'const { data: deactivated, error } = await supabase.functions.invoke(',
      '  `org-people/organizations/${ORG_ID}/members/${USER_ID}/deactivate`,',
      "  { method: 'POST' },",
      ');',
      'if (error) throw error;',
      'console.log(deactivated.member.status, deactivated.suspended);',
    ].join('\n'),
  },
  {
    operation: `post ${members}/{user}/reactivate`,
    title: 'Reactivate them',
    curl: [
      'curl -sS --fail-with-body -X POST \\',
      '  "$API_URL/functions/v1/org-people/organizations/$ORG_ID/members/$USER_ID/reactivate" \\',
      auth,
    ].join('\n'),
    js: [
      'const { data: reactivated, error } = await supabase.functions.invoke(',
      '  `org-people/organizations/${ORG_ID}/members/${USER_ID}/reactivate`,',
      "  { method: 'POST' },",
      ');',
      'if (error) throw error;',
      'console.log(reactivated.member.status);',
    ].join('\n'),
  },
  {
    operation: 'delete /rest/v1/enrollments',
    title: 'Unenrol a member from a course',
    curl: [
      'curl -sS --fail-with-body -X DELETE \\',
      '  "$API_URL/rest/v1/enrollments?user_id=eq.$USER_ID&course_id=eq.$COURSE_ID" \\',
      auth,
    ].join('\n'),
    js: [
      'const { error } = await supabase',
      "  .from('enrollments')",
      '  .delete()',
      "  .eq('user_id', USER_ID)",
      "  .eq('course_id', COURSE_ID);",
      'if (error) throw error;',
    ].join('\n'),
  },
];

/** The document's code samples for one operation (none when it has no example). */
export function examplesFor(operation: string): { 'x-codeSamples'?: object[] } {
  const found = apiExamples.filter((example) => example.operation === operation);
  if (found.length === 0) return {};
  return {
    'x-codeSamples': found.flatMap((example) => [
      { lang: 'Shell', label: `curl: ${example.title}`, source: example.curl },
      { lang: 'JavaScript', label: `supabase-js: ${example.title}`, source: example.js },
    ]),
  };
}
