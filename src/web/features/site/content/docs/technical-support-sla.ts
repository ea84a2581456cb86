import { brand } from '@common/brand';
import type { DocPage } from '../types';

const minutesIn30Days = 30 * 24 * 60;
const minutesIn31Days = 31 * 24 * 60;
// 99.9% availability leaves 0.1% of the month's minutes for downtime.
const allowedDowntime = (totalMinutes: number) => totalMinutes * 0.001;

export const docPage: DocPage = {
  path: '/technical-support-sla',
  heading: 'Technical Support & SLA',
  lead: `How to reach ${brand.product} support, how quickly we respond at each priority, and the 99.9% monthly uptime commitment behind the service.`,
  badges: ['24/7 support channels', '99.9% monthly uptime'],
  icon: 'headphones',
  sections: [
    {
      id: 'support-channels',
      heading: 'Support channels',
      blocks: [
        {
          type: 'cards',
          items: [
            {
              title: 'Email support',
              icon: 'mail',
              text: `Write to [${brand.supportEmail}](mailto:${brand.supportEmail}) at any time, 24/7. Each message opens a ticket that stays with you until it is resolved.`,
            },
            {
              title: 'Account manager',
              icon: 'user',
              text: 'A dedicated account manager, 9am–5pm ET on business days, for customers on the Enterprise plan only.',
            },
          ],
        },
        {
          type: 'paragraph',
          text: `Security issues and suspected data breaches go to [${brand.securityEmail}](mailto:${brand.securityEmail}) as well as support, so the incident process starts without delay. See [Data Breach Response](/data-breach-response).`,
        },
      ],
    },
    {
      id: 'response-targets',
      heading: 'First-response targets',
      blocks: [
        {
          type: 'paragraph',
          text: 'The first response is a reply from a support engineer who has read your ticket, not an automatic acknowledgement. You set the priority when you open a ticket; we may adjust it with you if the impact turns out to be different.',
        },
        {
          type: 'table',
          caption: 'First-response targets by priority',
          columns: ['Priority', 'Typical situation', 'First response within'],
          rows: [
            [
              'Urgent',
              'The platform is unavailable for your institution, or a security incident or data loss is suspected',
              '1 hour',
            ],
            [
              'High',
              'A core feature such as sign-in, the course library or the study coach fails for many users, with no workaround',
              '4 business hours',
            ],
            [
              'Normal',
              'A feature misbehaves for some users, or a workaround exists',
              '8 business hours',
            ],
            [
              'Low',
              'Questions, how-to requests, documentation and feature suggestions',
              '24 business hours',
            ],
          ],
        },
        {
          type: 'callout',
          tone: 'info',
          title: 'Business hours',
          text: 'Business hours are 9am–5pm Eastern Time (ET), Monday to Friday. The Urgent target runs around the clock.',
        },
      ],
    },
    {
      id: 'escalation',
      heading: 'Escalation',
      blocks: [
        {
          type: 'steps',
          items: [
            {
              title: 'Reply on the ticket',
              text: 'Explain what has changed or why the current priority understates the impact. The reply reaches the engineer handling it.',
            },
            {
              title: 'Ask for an escalation',
              text: 'Ask in your reply for the ticket to be escalated, and say why. Escalations are reviewed within one business day.',
            },
            {
              title: 'Involve your account manager',
              text: 'Enterprise customers can also raise the escalation with their account manager during account-management hours, 9am–5pm ET.',
            },
          ],
        },
      ],
    },
    {
      id: 'uptime-commitment',
      heading: 'Uptime commitment',
      blocks: [
        {
          type: 'paragraph',
          text: `We commit to **99.9% availability per calendar month** for the hosted ${brand.product} service. Availability for a month is calculated as:`,
        },
        {
          type: 'code',
          language: 'text',
          caption: 'Monthly availability',
          code: 'availability (%) = (total minutes − downtime minutes) / total minutes × 100',
        },
        {
          type: 'paragraph',
          text: `**Worked example.** A 30-day month has 30 × 24 × 60 = ${minutesIn30Days.toLocaleString('en-US')} minutes. At 99.9% the service may be unavailable for at most 0.1% of them: ${minutesIn30Days.toLocaleString('en-US')} × 0.001 = **${allowedDowntime(minutesIn30Days).toFixed(1)} minutes** in the month. A 31-day month (${minutesIn31Days.toLocaleString('en-US')} minutes) allows ${allowedDowntime(minutesIn31Days).toFixed(1)} minutes.`,
        },
        {
          type: 'paragraph',
          text: 'Downtime means minutes in which users cannot sign in or the service does not respond to requests, other than the exclusions below.',
        },
      ],
    },
    {
      id: 'exclusions',
      heading: 'Exclusions',
      blocks: [
        {
          type: 'list',
          items: [
            '**Scheduled maintenance** is excluded from downtime when it is announced at least 48 hours in advance. We schedule it for low-traffic periods, usually at weekends.',
            'Maintenance that cannot wait 48 hours, such as an urgent security fix, counts as downtime for the purpose of the commitment.',
          ],
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
              text: 'The database is backed up every day, in the primary region us-east-1. See [Data Hosting](/data-hosting).',
            },
            {
              term: 'Point-in-time recovery',
              text: 'The database can be restored to any moment within the last 7 days, to undo an accidental deletion or recover from an incident.',
            },
            {
              term: 'Encryption',
              text: 'Backups are encrypted at rest with AES-256, like the live data. See [Data Encryption](/data-encryption).',
            },
          ],
        },
        {
          type: 'paragraph',
          text: 'To ask for a restore, open an Urgent or High ticket stating the time to restore to (with time zone) and what was lost.',
        },
      ],
    },
    {
      id: 'opening-a-ticket',
      heading: 'Opening a good ticket',
      blocks: [
        {
          type: 'list',
          items: [
            'What you expected and what happened instead, with the exact error message.',
            'When it happened, with time zone, and whether it still happens.',
            'Who is affected: one user, a course, or the whole institution.',
            'The page address and the steps to reproduce, with screenshots if they help.',
            'Never include passwords, API keys or students’ personal data beyond what is needed to identify the problem.',
          ],
        },
      ],
    },
  ],
};
