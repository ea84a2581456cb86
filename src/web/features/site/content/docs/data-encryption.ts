import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/data-encryption',
  heading: 'Data Encryption',
  lead: `How ${brand.product} protects data with cryptography: TLS 1.3 on every connection, AES-256 for everything stored, keys held in a cloud key management service, memory-hard password hashes and signed tokens that anyone can verify.`,
  icon: 'lock',
  badges: ['TLS 1.3', 'AES-256', 'ES256'],
  sections: [
    {
      id: 'at-a-glance',
      heading: 'At a glance',
      blocks: [
        {
          type: 'table',
          caption: 'Cryptographic protection by layer',
          columns: ['What', 'Protection'],
          rows: [
            ['Data in transit', 'TLS 1.3'],
            ['Data at rest: database, files, uploads', 'AES-256'],
            ['Backups', 'AES-256, with the same key management as live data'],
            [
              'Encryption keys',
              'Held in a cloud key management service, rotated, access-controlled',
            ],
            ['Passwords', 'argon2id hashes with a unique random salt'],
            ['Access tokens', 'ES256 signatures, public keys published as a JWKS'],
          ],
        },
      ],
    },
    {
      id: 'in-transit',
      heading: 'Encryption in transit',
      blocks: [
        {
          type: 'paragraph',
          text: 'Every connection to the platform uses **TLS 1.3**: the web app, the REST and auth APIs, file downloads and edge functions. TLS 1.3 allows only modern cipher suites with forward secrecy, so recorded traffic cannot be decrypted later even if a server key were compromised.',
        },
        {
          type: 'paragraph',
          text: 'Outgoing connections are encrypted as well: calls to AI providers and the delivery of finished courses to a learning management system go over HTTPS only.',
        },
      ],
    },
    {
      id: 'at-rest',
      heading: 'Encryption at rest',
      blocks: [
        {
          type: 'paragraph',
          text: 'The database, its write-ahead log, the file storage buckets (including the private `kb_files` bucket and the investor data room) and all backups are encrypted with **AES-256**. Encryption happens in the storage layer, so every table and file is covered, including ones added later, without relying on application code to remember it.',
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'What encryption at rest does and does not do',
          text: 'It protects data on disks, snapshots and backup media against physical theft and improper disposal. It does not decide who may read data through the application: that is the job of row-level security and roles, described on [User Roles & Permissions](/user-roles-permissions).',
        },
      ],
    },
    {
      id: 'key-management',
      heading: 'Key management',
      blocks: [
        {
          type: 'paragraph',
          text: 'Encryption keys are generated and held in a **cloud key management service (KMS)**. The keys that protect data are themselves encrypted by master keys that never leave the KMS in plain form.',
        },
        {
          type: 'list',
          items: [
            '**Rotation**: master keys are rotated on a schedule and immediately when compromise is suspected. Data encrypted under earlier key versions stays readable, while new data uses the current version.',
            '**Access control**: only the storage services that need a key may use it, and staff cannot export key material. Permission to manage keys is separate from permission to read data.',
            '**Audit**: every use and every administrative change of a key is logged by the key management service.',
          ],
        },
      ],
    },
    {
      id: 'passwords',
      heading: 'Password hashing',
      blocks: [
        {
          type: 'paragraph',
          text: 'Passwords are never stored. The platform keeps an **argon2id** hash of each password with a unique random salt, using at least the parameters OWASP recommends (19 MiB of memory and 2 iterations per hash). Argon2id, the winner of the Password Hashing Competition, is memory-hard: every guess costs an attacker memory as well as time, which makes large-scale guessing on stolen hashes slow and expensive even with specialised hardware.',
        },
      ],
    },
    {
      id: 'token-signing',
      heading: 'Token signing',
      blocks: [
        {
          type: 'paragraph',
          text: 'Access tokens are JSON Web Tokens signed with **ES256** (ECDSA on the P-256 curve with SHA-256). The private key stays on the server; the public keys are published as a JSON Web Key Set at `/auth/v1/.well-known/jwks.json`. Each token names the key that signed it in its `kid` header, so any service can check a token without sharing a secret.',
        },
        {
          type: 'code',
          language: 'ts',
          caption: 'Verifying an access token in your own service',
          code: [
            "import { createRemoteJWKSet, jwtVerify } from 'jose';",
            '',
            'const jwks = createRemoteJWKSet(',
            "  new URL('https://your-deployment.example/auth/v1/.well-known/jwks.json'),",
            ');',
            '',
            "const { payload } = await jwtVerify(accessToken, jwks, { algorithms: ['ES256'] });",
            '// payload.sub is the user id, payload.role the database role',
          ].join('\n'),
        },
        {
          type: 'paragraph',
          text: 'When the signing key is rotated, the new key signs from then on and the previous key stays published, so tokens it signed remain valid until they expire (access tokens live for one hour). API keys are reissued under the new key. Tokens without a signature (`alg: none`) are always rejected, and symmetric HS256 tokens are accepted only where a self-hosted deployment explicitly configures a shared secret.',
        },
      ],
    },
    {
      id: 'backups',
      heading: 'Backups',
      blocks: [
        {
          type: 'paragraph',
          text: 'Daily backups and the logs that allow point-in-time recovery within the last 7 days are encrypted with AES-256 under keys from the key management service, exactly like live data. They are stored in the same region as the database; see [Data Hosting](/data-hosting).',
        },
      ],
    },
    {
      id: 'self-hosted',
      heading: 'Self-hosted deployments',
      blocks: [
        {
          type: 'callout',
          tone: 'warning',
          title: 'Your infrastructure, your encryption',
          text: 'An institution that runs the platform on its own servers takes over two of these controls: TLS termination (configure TLS 1.3 on the reverse proxy or load balancer in front of the platform) and encryption at rest (encrypt the disks or volumes of the PostgreSQL server and the data directory, with keys in your own key management service). Password hashing and token signing work the same way in every deployment.',
        },
        {
          type: 'paragraph',
          text: 'For the wider picture of controls, see [Security & Compliance](/security-compliance) and [Developer Build & Security](/developer-build-security).',
        },
      ],
    },
  ],
};
