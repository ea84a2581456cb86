import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/sso-integration',
  heading: 'SSO Integration',
  lead: `Let students and staff sign in to ${brand.product} with their university account. Today ${brand.product} is a relying party for OpenID Connect; SAML 2.0 support as a service provider is planned, and its details below are what it will use.`,
  badges: ['OpenID Connect', 'SAML 2.0 planned'],
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
              'SAML 2.0 (planned, not in this build)',
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
          tone: 'warning',
          title: 'SAML is planned',
          text: 'This build does not accept SAML yet: its auth service reports `saml_enabled: false` at `/auth/v1/settings`. Institutions sign in through OpenID Connect today, with one provider per deployment configured by the operator (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`).',
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
          caption: `${brand.product} as a SAML 2.0 service provider (planned)`,
          columns: ['Setting', 'Value'],
          rows: [
            ['Metadata URL', '`https://{your-domain}/auth/v1/sso/saml/metadata`'],
            ['Entity ID (audience)', 'The metadata URL above'],
            [
              'Assertion consumer service (ACS) URL',
              '`https://{your-domain}/auth/v1/sso/saml/acs`',
            ],
            ['ACS binding', 'HTTP-POST'],
            ['Name ID format', 'Email address, or persistent'],
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
              title: 'Request SSO for your organisation',
              text: `Write to [${brand.supportEmail}](mailto:${brand.supportEmail}) with the email domains your users sign in with (for example \`university.edu\`) and the protocol you want to use.`,
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
              title: 'Send your IdP details',
              text: 'For SAML, send your IdP metadata URL or XML file; for OpenID Connect, the issuer URL, client ID and client secret, through the secure channel support provides. Never send secrets in plain email.',
            },
            {
              title: 'Test with a pilot account',
              text: 'Sign in with a test account from each user group, check the name and role shown in the app, and check that a user outside the assigned groups is refused.',
            },
            {
              title: 'Roll out',
              text: 'Tell users to choose single sign-on on the sign-in page and enter their university email. Existing password accounts with the same verified email are linked on their first SSO sign-in.',
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
              text: 'Names are refreshed from the assertion at each sign-in, so a name change in your directory reaches the platform the next time the user signs in.',
            },
            {
              term: 'Role mapping',
              text: 'New users receive the Student role. A group or affiliation attribute from your IdP (for example staff or faculty) can be mapped to the Instructor role during set-up, and an Org Admin can assign or change any role at any time. See [User Roles & Permissions](/user-roles-permissions).',
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
              'Send the new IdP metadata to support before the old certificate expires',
            ],
            [
              'Sign-in fails right after a successful IdP login',
              'The clocks of the IdP and the platform differ, or the assertion expired in transit',
              'Check the IdP server’s time synchronisation; retry from the sign-in page',
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
