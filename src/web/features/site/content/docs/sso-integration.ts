import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/sso-integration',
  heading: 'SSO Integration',
  lead: `Let students and staff sign in to ${brand.product} with their university account: ${brand.product} is a SAML 2.0 service provider, registered by your organization admin, and a relying party for OpenID Connect.`,
  badges: ['SAML 2.0', 'OpenID Connect'],
  icon: 'key',
  sections: [
    {
      id: 'overview',
      heading: 'Overview',
      blocks: [
        {
          type: 'paragraph',
          text: `Single sign-on is handled by the ${brand.product} auth service at \`/auth/v1\`. After your identity provider (IdP) confirms who the user is, the auth service issues a normal ${brand.product} session, so every later request is subject to the same token checks and row-level security as a password sign-in.`,
        },
        {
          type: 'table',
          caption: 'Supported protocols',
          columns: ['Protocol', 'Typical identity providers', 'Flow'],
          rows: [
            [
              'SAML 2.0',
              'Microsoft Entra ID, Okta, Shibboleth, AD FS, Google Workspace',
              'Service-provider-initiated, HTTP-POST binding to the assertion consumer service',
            ],
            [
              'OpenID Connect',
              'Any standards-compliant OpenID provider',
              'Authorization code flow with PKCE, scopes `openid email profile`',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'SAML or OpenID Connect',
          text: 'An organization admin registers the institution’s SAML identity provider under Single sign-on in the app, with the email domains that lead to it. OpenID Connect has one provider per deployment, configured by the operator (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`). An organization may use either.',
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Password sign-in',
          text: `Email and password sign-in stays available for accounts outside your SSO domains, such as external examiners. You can ask for password sign-in to be turned off for your domains once SSO is live.`,
        },
      ],
    },
    {
      id: 'service-provider-details',
      heading: 'Service provider details',
      blocks: [
        {
          type: 'paragraph',
          text: 'Give these values to the team that runs your identity provider. Replace `{your-domain}` with the address of your deployment.',
        },
        {
          type: 'table',
          caption: `${brand.product} as a SAML 2.0 service provider`,
          columns: ['Setting', 'Value'],
          rows: [
            ['Metadata URL', '`https://{your-domain}/auth/v1/sso/saml/metadata`'],
            ['Entity ID (audience)', 'The metadata URL above'],
            [
              'Assertion consumer service (ACS) URL',
              '`https://{your-domain}/auth/v1/sso/saml/acs`',
            ],
            ['ACS binding', 'HTTP-POST'],
            ['Name ID format', 'Persistent, or email address (not transient)'],
            ['Signing', 'Assertions or responses must be signed by the IdP'],
          ],
        },
        {
          type: 'paragraph',
          text: 'The metadata document contains the same entity ID and ACS URL in XML, and most identity providers can import it directly instead of entering the values by hand.',
        },
      ],
    },
    {
      id: 'required-attributes',
      heading: 'Required attributes',
      blocks: [
        {
          type: 'paragraph',
          text: `${brand.product} needs three attributes about each user. Release them in the assertion, or as claims in the ID token for OpenID Connect.`,
        },
        {
          type: 'table',
          caption: 'User attributes',
          columns: ['Attribute', 'Required', 'Used for', 'OpenID Connect claim'],
          rows: [
            [
              '`email`',
              'Yes',
              'Account identity and matching to an existing account',
              '`email` (verified)',
            ],
            [
              '`firstName`',
              'Yes',
              'Profile name shown in the app and to instructors',
              '`given_name`',
            ],
            [
              '`lastName`',
              'Yes',
              'Profile name shown in the app and to instructors',
              '`family_name`',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Use the attribute names exactly',
          text: 'Attribute names are case-sensitive. If your IdP sends URI-style names (for example the `…/claims/emailaddress` form), map them to `email`, `firstName` and `lastName` in the IdP’s attribute release settings. A sign-in without an email address is refused.',
        },
      ],
    },
    {
      id: 'set-up',
      heading: 'Set-up steps',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Open Single sign-on in the app',
              text: `As an organization admin, open Single sign-on (\`/app/org/sso\`): it shows the metadata URL, entity ID and ACS URL. For OpenID Connect, write to [${brand.supportEmail}](mailto:${brand.supportEmail}).`,
            },
            {
              title: 'Register the application in your IdP',
              text: 'Create a SAML application from the metadata URL, or an OpenID Connect client with the redirect URI `https://{your-domain}/auth/v1/callback`.',
            },
            {
              title: 'Release the attributes',
              text: 'Configure the IdP to send `email`, `firstName` and `lastName`, and assign the application to the people who should have access.',
            },
            {
              title: 'Register your IdP',
              text: 'For SAML, enter your IdP metadata URL or paste its XML on the Single sign-on screen, with your email domains (for example `university.edu`); a domain belongs to one organization. For OpenID Connect, send the issuer URL, client ID and secret through the secure channel support provides.',
            },
            {
              title: 'Test with a pilot account',
              text: 'Sign in with a test account from each user group, check the name and role shown in the app, and check that a user outside the assigned groups is refused.',
            },
            {
              title: 'Roll out',
              text: 'Learners choose **Sign in with SSO** on the sign-in page and type their university email (or its domain); your portal can also start it with `signInWithSSO` (below). An existing account with the same email is linked on its first SSO sign-in if it is already a member of your organization; otherwise it keeps its password.',
            },
          ],
        },
        {
          type: 'code',
          language: 'ts',
          caption: 'Starting SSO from your own portal with supabase-js',
          code: [
            "const { data, error } = await supabase.auth.signInWithSSO({ domain: 'university.edu' });",
            'if (data?.url) window.location.href = data.url; // on to the identity provider',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'self-hosted-oidc',
      heading: 'OpenID Connect on a self-hosted deployment',
      blocks: [
        {
          type: 'paragraph',
          text: 'Institutions running their own deployment configure an OpenID Connect provider with environment variables; the server validates them at start-up and refuses to start if they are malformed.',
        },
        {
          type: 'code',
          language: 'bash',
          caption: 'Environment for a generic OpenID Connect provider',
          code: [
            'OIDC_ISSUER=https://login.university.edu',
            'OIDC_CLIENT_ID=…',
            'OIDC_CLIENT_SECRET=…          # from your secret store, never committed',
            'OIDC_PROVIDER_NAME=university # shown as the provider name; default "oidc"',
          ].join('\n'),
        },
      ],
    },
    {
      id: 'provisioning-and-roles',
      heading: 'Provisioning and role mapping',
      blocks: [
        {
          type: 'definitions',
          items: [
            {
              term: 'Just-in-time provisioning',
              text: 'A user’s account is created on their first successful SSO sign-in, from `email`, `firstName` and `lastName`. There is nothing to import in advance, and the email address counts as verified because your IdP vouched for it.',
            },
            {
              term: 'Profile updates',
              text: 'The attributes of each sign-in are kept with the user’s SSO identity. The profile name is set from `firstName` and `lastName` when the account is created; the user or an admin changes it in the app.',
            },
            {
              term: 'Role mapping',
              text: 'New users join your organization with the Student role. A role attribute named on the Single sign-on screen may give another role instead (`instructor`, `org_admin` or `compliance_officer`), and an Org Admin can assign or change any role at any time. See [User Roles & Permissions](/user-roles-permissions).',
            },
            {
              term: 'Deprovisioning',
              text: 'Removing a user from the application in your IdP stops new SSO sign-ins at once, but it does not end sessions that are already open. To end those immediately, an Org Admin also deactivates the user in the platform, which revokes their sessions.',
            },
          ],
        },
      ],
    },
    {
      id: 'troubleshooting',
      heading: 'Troubleshooting',
      blocks: [
        {
          type: 'table',
          caption: 'Common SSO problems',
          columns: ['Symptom', 'Likely cause', 'Fix'],
          rows: [
            [
              'The IdP reports an unknown ACS URL',
              'The ACS URL in the IdP does not match exactly',
              'Use `https://{your-domain}/auth/v1/sso/saml/acs` with the HTTP-POST binding',
            ],
            [
              'Sign-in fails with an audience error',
              'The entity ID in the IdP differs from the platform’s',
              'Set the audience to the metadata URL, or re-import the metadata',
            ],
            [
              'Sign-in fails with a signature error',
              'The IdP’s signing certificate was renewed',
              'Save the provider again on the Single sign-on screen (or paste the new metadata) before the old certificate expires',
            ],
            [
              'Sign-in fails right after a successful IdP login',
              'The clocks of the IdP and the platform differ, or the assertion expired in transit',
              'Check the IdP server’s time synchronisation; start single sign-on again from your portal (the app’s sign-in page has no SSO button yet)',
            ],
            [
              'The user is refused for a missing email',
              'The IdP does not release `email`',
              'Add `email` to the attribute release for the application',
            ],
            [
              'The user signs in with the wrong role',
              'The group attribute is missing or mapped differently',
              'Check the attribute in the IdP; an Org Admin can correct the role at once',
            ],
          ],
        },
        {
          type: 'paragraph',
          text: 'If a problem persists, open a ticket with the time of the attempt (with time zone), the user’s email and the IdP’s error message. Never send passwords, client secrets or full assertions by email. Response times are in [Technical Support & SLA](/technical-support-sla).',
        },
      ],
    },
  ],
};
