import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/security-notes',
  heading: 'Security Notes',
  lead: `Practical notes for everyone who signs in to ${brand.product}, administers an organisation or integrates with its API: how accounts, sessions, keys and files are protected, and what you should do on your side.`,
  icon: 'key',
  sections: [
    {
      id: 'passwords',
      heading: 'Password policy and account recovery',
      blocks: [
        {
          type: 'table',
          caption: 'Password rules',
          columns: ['Rule', 'Requirement'],
          rows: [
            ['Minimum length', '8 characters'],
            ['Maximum length', 'At least 64 characters are accepted, so long passphrases fit'],
            [
              'Common passwords',
              'Refused with a `weak_password` error that says why, checked against a list of the most frequently used passwords',
            ],
            [
              'Changing the password',
              'Needs re-authentication unless you signed in within the last 24 hours',
            ],
          ],
        },
        {
          type: 'list',
          items: [
            'Passwords are stored only as **argon2id** hashes. Nobody at ' +
              brand.company +
              ' can read your password, and it never appears in logs.',
            '**Changing a password requires re-authentication.** Unless you signed in within the last 24 hours, a one-time code is emailed to your verified address and the new password is accepted only with that code, so someone who finds an unlocked device cannot take over the account.',
            'Sign-in, sign-up, recovery and verification attempts are rate-limited per client address; too many attempts are refused with a clear message to try again later, and failed sign-ins are recorded for security monitoring.',
            'Password recovery sends a single-use link to your verified email address. The request uses a PKCE code challenge, so the link only completes in the browser that asked for it.',
            'Signing in through your institution (SSO) means your password is managed by your institution, not by us. See [SSO Integration](/sso-integration).',
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Choosing a password',
          text: 'Use a long passphrase that you do not use anywhere else, ideally generated and kept by a password manager. Length protects you more than special characters do.',
        },
      ],
    },
    {
      id: 'email-verification',
      heading: 'Email verification',
      blocks: [
        {
          type: 'paragraph',
          text: 'Email verification is enabled. A new account can sign in only after its owner has opened the confirmation link sent to the address, and a change of email address takes effect only once the new address is confirmed. This keeps recovery links and notifications going to a mailbox the account holder controls.',
        },
      ],
    },
    {
      id: 'two-factor-authentication',
      heading: 'Two-factor authentication (TOTP)',
      blocks: [
        {
          type: 'paragraph',
          text: 'A second factor protects an account even if its password leaks. The platform supports time-based one-time passwords (TOTP), the six-digit codes shown by authenticator apps.',
        },
        {
          type: 'steps',
          items: [
            {
              title: 'Enrol',
              text: 'In [Account Settings](/account), choose to add an authenticator. The platform creates a TOTP factor and shows a QR code.',
            },
            {
              title: 'Scan',
              text: 'Scan the QR code with an authenticator app on your phone. The app starts showing a new code every 30 seconds.',
            },
            {
              title: 'Verify',
              text: 'Enter the current code. The factor becomes verified and your session is upgraded to two-factor assurance.',
            },
            {
              title: 'Sign in from now on',
              text: 'After your password, you are asked for a code from the app. Without it, the session stays at single-factor assurance.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'Verifying a code raises the session’s assurance level to `aal2`, which appears in the access token, so policies and edge functions can require a second factor for sensitive actions. With a verified factor, changing the password or email address and signing out other sessions need `aal2` too.',
        },
        {
          type: 'paragraph',
          text: 'Two other second factors are off by default and appear in [Account Settings](/account) only where the operator turns them on: a security key, or this device’s fingerprint, face or screen lock, checked with WebAuthn (`AUTH_MFA_WEBAUTHN_ENROLL`); and a code sent by text message to a mobile number (`AUTH_MFA_PHONE_ENROLL`). Either can then be used after the password in place of the authenticator app. Text messages are the weakest of the three, since a number can be moved to another SIM.',
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Keep a way back in',
          text: `Your first second step, whichever it is (authenticator app, security key or text message), gives you ten one-time recovery codes, shown once and stored only as hashes: keep them safe, each one signs you in once in place of your second step. An account without codes creates them in Account Settings. If you lose both your second step and the codes, contact [${brand.supportEmail}](mailto:${brand.supportEmail}): an administrator removes the factor only after your identity has been verified.`,
        },
      ],
    },
    {
      id: 'sessions-and-tokens',
      heading: 'Sessions and tokens',
      blocks: [
        {
          type: 'paragraph',
          text: 'Signing in creates a session made of two tokens. The browser keeps them in its local storage for this site and sends the access token with every request.',
        },
        {
          type: 'table',
          caption: 'Tokens and keys at a glance',
          columns: ['Credential', 'Lifetime', 'Where it belongs', 'What it allows'],
          rows: [
            [
              'Access token',
              '1 hour (3,600 seconds)',
              'The signed-in browser',
              'Requests as that user, limited by row-level security',
            ],
            [
              'Refresh token',
              'Single use; replaced at every refresh',
              'The signed-in browser',
              'Obtaining a new access token while the session is valid',
            ],
            [
              'Anon key',
              'Long-lived',
              'Public web pages and apps',
              'Requests as a visitor who is not signed in; only what policies allow `anon`',
            ],
            [
              'Service role key',
              'Long-lived',
              'Your servers only',
              'Administrative access that bypasses row-level security',
            ],
          ],
        },
        {
          type: 'list',
          items: [
            'Access tokens are ES256-signed JWTs. Anyone can check them against the published keys; nobody can forge them without the private key. See [Data Encryption](/data-encryption).',
            '**Refresh-token rotation** is on: every refresh returns a new refresh token and retires the old one. If a retired refresh token is presented again (apart from a 10-second grace period for two tabs refreshing at once), the whole session is revoked, because that is the signature of a stolen token.',
            'The app refreshes the access token automatically shortly before it expires. The timer pauses while the tab is hidden and resumes when you return; if a refresh fails for a reason that cannot be retried, the session is removed and you sign in again.',
            'A session ends after 30 days, or after 7 days without use, whichever comes first. Self-hosted deployments can change both limits.',
            'Signing out removes the session from the browser. You can also sign out your other sessions, for example after using a shared computer.',
          ],
        },
      ],
    },
    {
      id: 'service-role-key',
      heading: 'The service role key',
      blocks: [
        {
          type: 'paragraph',
          text: 'The service role key is a long-lived token for the `service_role` database role. That role bypasses row-level security: whoever holds the key can read and change every row of every table in the deployment. It exists so that your own back-end systems, such as a student information system sync, can use the [API](/api-access) server to server.',
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'Never put the service role key in client code',
          text: 'Anything shipped to a browser or a mobile app can be read by its users: bundles, HTML, local storage and network traffic are all visible. Keep the key in a secret store on a server you control, never in a repository, a front-end build, a log line or a support ticket. Browsers use the anon key plus the signed-in user’s access token.',
        },
        {
          type: 'paragraph',
          text: `If you suspect the key has leaked, email [${brand.securityEmail}](mailto:${brand.securityEmail}) at once. Rotating the signing key issues new API keys; tokens signed by the previous key keep working only until they expire.`,
        },
      ],
    },
    {
      id: 'edge-functions',
      heading: 'Edge functions and token verification',
      blocks: [
        {
          type: 'paragraph',
          text: 'Edge functions run server-side logic such as AI coaching, subscription checks and GDPR export and deletion. Every function verifies the caller’s token before it runs, unless it is deliberately public, like the data room access check, which must work before anyone is signed in. A public function still sees the caller’s verified identity when a valid token is sent.',
        },
        {
          type: 'paragraph',
          text: 'Verification checks the expiry and the signature against the published key set. When a token carries no key id or uses a symmetric algorithm, the client cannot check the signature locally and asks the auth service for the user instead. Integrators may meet these errors:',
        },
        {
          type: 'definitions',
          items: [
            {
              term: 'JWKS is empty',
              text: 'The published key set contains no keys; the deployment is misconfigured.',
            },
            {
              term: 'No matching signing key found in JWKS',
              text: 'The token names a key id the deployment does not publish: it was issued by another deployment or by a retired key.',
            },
            {
              term: 'Invalid JWT signature',
              text: 'The token was altered or signed with a different key. Reject it.',
            },
          ],
        },
      ],
    },
    {
      id: 'file-storage',
      heading: 'File storage',
      blocks: [
        {
          type: 'paragraph',
          text: 'Knowledge-base files are kept in `kb_files`, a **private** storage bucket. Its files have no public address: every download is an authenticated request that storage policies evaluate for that user, or a signed link that expires. The investor data room documents are private in the same way and are served only to visitors whose access has been verified by the server.',
        },
      ],
    },
    {
      id: 'reporting-a-vulnerability',
      heading: 'Reporting a vulnerability',
      blocks: [
        {
          type: 'paragraph',
          text: `If you believe you have found a security problem in ${brand.product}, email [${brand.securityEmail}](mailto:${brand.securityEmail}). Please include:`,
        },
        {
          type: 'list',
          items: [
            'what you found and where (page, endpoint or component),',
            'the steps to reproduce it, with requests and responses where relevant,',
            'what an attacker could achieve with it,',
            'how we can reach you for questions.',
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Testing in good faith',
          text: 'Use your own accounts, do not access or change other people’s data, do not degrade the service for others, and give us a reasonable time to fix the issue before you disclose it. Reports are tracked like the findings of our [penetration tests](/security-audits); a report that shows data was exposed is handled under the [Data Breach Response](/data-breach-response) plan.',
        },
      ],
    },
  ],
};
