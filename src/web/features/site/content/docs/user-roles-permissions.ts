import { brand } from '@common/brand';
import type { DocPage } from '../types';

const adaptPath = `/${brand.initials.toLowerCase()}-adapt`;

export const docPage: DocPage = {
  path: '/user-roles-permissions',
  heading: 'User Roles & Permissions',
  lead: `${brand.product} gives every user one or more roles. Four standard roles cover students, teaching staff, administrators and compliance staff; each grants exactly the access that work needs, and the database enforces it.`,
  icon: 'users',
  badges: ['Role-based access', 'Least privilege'],
  sections: [
    {
      id: 'standard-roles',
      heading: 'The four standard roles',
      blocks: [
        {
          type: 'cards',
          items: [
            {
              title: 'Student',
              icon: 'graduation',
              text: 'Learns in the courses assigned to them and sees their own progress and results.',
            },
            {
              title: 'Instructor',
              icon: 'book',
              text: 'Everything a student can do, plus teaching: course content, grading and the progress of students in assigned courses.',
            },
            {
              title: 'Org Admin',
              icon: 'settings',
              text: 'Everything an instructor can do, plus running the organisation: users, roles, enrolments, settings and organisation-wide reports.',
            },
            {
              title: 'Compliance Officer',
              icon: 'shield',
              text: 'Read-only oversight of audit logs, data access patterns and security events, without access to user data or course content.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'In marketing material the Org Admin appears as the **Organization Owner**, the role that also controls the organisation’s subscription.',
        },
      ],
    },
    {
      id: 'role-rights',
      heading: 'What each role may do',
      blocks: [
        {
          type: 'definitions',
          items: [
            {
              term: 'Student',
              text: 'Access assigned courses; view own progress and results; take part in course discussions; manage own profile settings.',
            },
            {
              term: 'Instructor',
              text: 'All student rights; view the progress of all students in assigned courses; create and manage course content; grade assessments and give feedback; create assignments, view course analytics and set goals.',
            },
            {
              term: 'Org Admin',
              text: 'All instructor rights; create, update and deactivate users; assign roles; manage enrolments; view organisation-wide analytics and reports; configure organisation settings; as Organization Owner, control the subscription.',
            },
            {
              term: 'Compliance Officer',
              text: 'Read-only access to all audit logs, data access patterns and security events. Cannot view actual user data or course content.',
            },
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Why the Compliance Officer cannot see user data',
          text: 'Oversight of who accessed what does not require seeing the data itself. Audit entries show the table, record, action, purpose and legal basis of each access; the role is granted no read policy on the tables that hold student records or course material. This keeps the oversight function from becoming a second route to personal data.',
        },
      ],
    },
    {
      id: 'permission-matrix',
      heading: 'Permission matrix',
      blocks: [
        {
          type: 'table',
          caption: 'Rights of the standard roles',
          columns: ['Permission', 'Student', 'Instructor', 'Org Admin', 'Compliance Officer'],
          rows: [
            ['Access assigned courses', 'Yes', 'Yes', 'Yes', 'No'],
            ['View own progress and results', 'Yes', 'Yes', 'Yes', 'No'],
            ['Take part in course discussions', 'Yes', 'Yes', 'Yes', 'No'],
            ['Manage own profile settings', 'Yes', 'Yes', 'Yes', 'Yes'],
            ['View progress of students', 'No', 'In assigned courses', 'Whole organisation', 'No'],
            ['Create and manage course content', 'No', 'Yes', 'Yes', 'No'],
            ['Grade assessments and give feedback', 'No', 'Yes', 'Yes', 'No'],
            ['Create, update and deactivate users', 'No', 'No', 'Yes', 'No'],
            ['Assign roles', 'No', 'No', 'Yes', 'No'],
            ['Manage enrolments', 'No', 'No', 'Yes', 'No'],
            ['View organisation-wide analytics and reports', 'No', 'No', 'Yes', 'No'],
            ['Configure organisation settings', 'No', 'No', 'Yes', 'No'],
            ['Control the subscription', 'No', 'No', 'Yes', 'No'],
            [
              'Read audit logs, access patterns and security events',
              'No',
              'No',
              'No',
              'Yes, read-only',
            ],
            ['View user data or course content of others', 'No', 'Assigned courses', 'Yes', 'No'],
          ],
        },
        {
          type: 'paragraph',
          text: 'Roles combine: a user who holds two roles has the rights of both. An Org Admin who also carries out audits is given the Compliance Officer role in addition, which keeps audit access a deliberate, recorded decision.',
        },
      ],
    },
    {
      id: 'assigning-roles',
      heading: 'Assigning and changing roles',
      blocks: [
        {
          type: 'paragraph',
          text: 'Roles are assigned by an Org Admin in the administrative dashboard and can be changed at any time. A change applies from the user’s next request: policies look up the current role on every request rather than trusting a copy inside the user’s token.',
        },
        {
          type: 'steps',
          items: [
            {
              title: 'Open user management',
              text: 'In the administrative dashboard, open the list of users of your organisation.',
            },
            { title: 'Choose the user', text: 'Find the person by name or email address.' },
            {
              title: 'Set the roles',
              text: 'Add or remove roles. Every change is written to the audit log with who made it and when.',
            },
            {
              title: 'Review regularly',
              text: 'Remove roles that are no longer needed, for example when an instructor stops teaching a course or a staff member leaves. Deactivating a user ends their access without deleting the records that must be kept.',
            },
          ],
        },
      ],
    },
    {
      id: 'custom-roles',
      heading: 'Custom roles for enterprise clients',
      blocks: [
        {
          type: 'paragraph',
          text: `Institutions whose structure does not fit the four standard roles, for example teaching assistants who grade but do not author content, can ask for custom roles. Custom roles are available to enterprise clients on request and are defined with ${brand.company} so that each one is expressed in the same database policies as the standard roles. Enterprise clients also have a dedicated account manager; see [Technical Support & SLA](/technical-support-sla).`,
        },
      ],
    },
    {
      id: 'le-adapt-roles',
      heading: `${brand.adaptTool} roles`,
      blocks: [
        {
          type: 'paragraph',
          text: `[${brand.adaptTool}](${adaptPath}), the content adaptation tool, has its own three roles, matching the steps of turning course material into accessible lessons.`,
        },
        {
          type: 'table',
          caption: `Roles in ${brand.adaptTool}`,
          columns: ['Role', 'Responsibilities'],
          rows: [
            [
              '**Admin**',
              'Manages the workspace: who holds which role and where finished courses are delivered (the learning management system connection).',
            ],
            [
              '**Educator**',
              'Creates courses from uploads or a prompt, accepts or edits the generated sections, exports them and sends them to the learning management system.',
            ],
            [
              '**Reviewer**',
              'Reviews generated lessons and quizzes for accuracy, clarity and bias before they are used.',
            ],
          ],
        },
      ],
    },
    {
      id: 'enforcement',
      heading: 'How permissions are enforced',
      blocks: [
        {
          type: 'paragraph',
          text: 'Roles are rows in the `user_roles` table: a user id and a role. Row-level security policies on each table call `has_role(user_id, role)` to decide whether the signed-in user may read or change a row. Because every request runs under the caller’s identity inside the database, the same rule applies to the web app, the REST API and edge functions; hiding a button in the interface is never the only protection.',
        },
        {
          type: 'table',
          caption: 'Role names stored in user_roles',
          columns: ['Role', 'Stored as'],
          rows: [
            ['Student', '`learner`'],
            ['Instructor', '`instructor`'],
            ['Org Admin', '`org_admin`'],
            ['Compliance Officer', '`compliance_officer`'],
          ],
        },
        {
          type: 'code',
          language: 'sql',
          caption: 'How a policy checks a role',
          code: [
            "select has_role(auth.uid(), 'instructor');",
            '-- true when the signed-in user holds the instructor role',
          ].join('\n'),
        },
        {
          type: 'paragraph',
          text: 'The overall model, including the audit trail of role changes, is described on [Security & Compliance](/security-compliance).',
        },
      ],
    },
  ],
};
