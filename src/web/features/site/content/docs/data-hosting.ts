import { brand } from '@common/brand';
import type { DocPage } from '../types';

export const docPage: DocPage = {
  path: '/data-hosting',
  heading: 'Data Hosting',
  lead: `Where ${brand.product} stores your data, what that means for data residency and international transfers, how it is backed up, and how institutions can host it themselves.`,
  icon: 'server',
  badges: ['us-east-1', 'Single region'],
  sections: [
    {
      id: 'primary-region',
      heading: 'One primary region',
      blocks: [
        {
          type: 'paragraph',
          text: `The hosted ${brand.product} service runs in one primary region: **us-east-1 (Northern Virginia)**, United States. The servers that process requests, the database, file storage and backups are all located there. Only the static files of the web app (scripts, styles and images, which contain no personal data) may be delivered from a content delivery network close to the visitor.`,
        },
        {
          type: 'table',
          caption: 'Where each kind of data is stored',
          columns: ['Data', 'Location'],
          rows: [
            ['Accounts, profiles and roles', 'us-east-1'],
            ['Courses, enrolments, progress and assessment results', 'us-east-1'],
            ['AI coach conversations, notes and flashcards', 'us-east-1'],
            ['Uploaded files and generated course material', 'us-east-1'],
            ['Audit logs, consent records and privacy requests', 'us-east-1'],
            ['Backups and point-in-time recovery logs', 'us-east-1'],
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'No secondary storage location',
          text: 'There is no second region holding a copy of your data, and no replication to other countries. Data leaves the region only when a feature sends it somewhere by design, for example text sent to an AI provider to generate a reply, or a course an educator sends to a learning management system.',
        },
      ],
    },
    {
      id: 'data-residency',
      heading: 'What this means for data residency',
      blocks: [
        {
          type: 'paragraph',
          text: 'A single, known location makes the answer to "where is our data?" simple and verifiable. It also means that institutions bound to keep data inside a particular country or the European Union cannot meet that requirement with the hosted service today.',
        },
        {
          type: 'list',
          items: [
            'For US institutions, all data stays in the United States.',
            'For institutions and users in the EU, EEA, United Kingdom or Switzerland, using the hosted service is a transfer of personal data to the United States (see below).',
            'Institutions that need data in their own country or region can host the platform themselves (see the last section).',
          ],
        },
      ],
    },
    {
      id: 'international-transfers',
      heading: 'International transfers',
      blocks: [
        {
          type: 'paragraph',
          text: `Because the service is hosted in the United States, personal data from Europe is transferred under **Standard Contractual Clauses**, included in the data processing agreement between the institution and ${brand.company}, with supplementary measures: encryption in transit and at rest, role-based access enforced by the database, and a complete audit trail. Details are in the [Privacy Policy & GDPR](/privacy-gdpr).`,
        },
        {
          type: 'callout',
          tone: 'warning',
          title: 'For data protection officers',
          text: `Include the transfer in your records of processing and, where your assessment requires it, in a transfer impact assessment. We provide the information about our processors and safeguards that such an assessment needs; write to [${brand.privacyEmail}](mailto:${brand.privacyEmail}).`,
        },
      ],
    },
    {
      id: 'backups-and-recovery',
      heading: 'Backups and recovery',
      blocks: [
        {
          type: 'definitions',
          items: [
            {
              term: 'Daily backups',
              text: 'A full backup of the database is taken every day.',
            },
            {
              term: 'Point-in-time recovery',
              text: 'The database can be restored to any moment within the last 7 days, for example to just before an accidental bulk deletion.',
            },
            {
              term: 'Encryption',
              text: 'Backups are encrypted with AES-256, like live data. See [Data Encryption](/data-encryption).',
            },
            {
              term: 'Location',
              text: 'Backups are kept in us-east-1, consistent with the single-region commitment above.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'Because there is no second region, recovery from a regional outage means restoring in us-east-1 once the region is available again, rather than failing over elsewhere. Our availability commitment and how it is measured are set out in [Technical Support & SLA](/technical-support-sla).',
        },
      ],
    },
    {
      id: 'self-hosting',
      heading: 'Self-hosting in your own region',
      blocks: [
        {
          type: 'paragraph',
          text: `${brand.product} is one application that can run on an institution’s own infrastructure, in the region and data centre it chooses. It runs in two modes:`,
        },
        {
          type: 'table',
          caption: 'Self-hosting modes',
          columns: ['Mode', 'Database', 'Suited to'],
          rows: [
            [
              '**Embedded**',
              'A built-in PostgreSQL-compatible database stored in a local data directory',
              'A pilot, a demonstration or a single department on one server',
            ],
            [
              '**Server**',
              'Your own PostgreSQL server, named by the `DATABASE_URL` setting',
              'Production use, several application processes behind a load balancer, your existing backup and replication',
            ],
          ],
        },
        {
          type: 'steps',
          items: [
            {
              title: 'Choose the location',
              text: 'Provision a server and, for production, a PostgreSQL database in the country or region your rules require.',
            },
            {
              title: 'Install and start',
              text: 'Install the application and start it with `DATABASE_URL` pointing at your database. On first start it creates the schema and its signing keys.',
            },
            {
              title: 'Secure the edges',
              text: 'Put TLS 1.3 in front of it and encrypt the database volumes with your own keys, as described in [Data Encryption](/data-encryption).',
            },
            {
              title: 'Own the backups',
              text: 'Back up the database with your own tooling. The daily backup and 7-day point-in-time recovery described above then become your configuration.',
            },
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Features that call out',
          text: 'A self-hosted platform keeps all stored data in your region. AI features still send the text they work on to the AI provider you configure, so choose providers whose processing location fits your requirements.',
        },
      ],
    },
  ],
};
