/**
 * Meta descriptions of the public pages, by route path. A page that has one also gets a
 * canonical link. The prerendered HTML carries them; the browser loads this module on demand
 * when it navigates between pages, so the first load of every page does not.
 */
import { brand } from './brand';
import { adaptPath } from './site-routes';

const descriptions = new Map<string, string>([
  [
    '/',
    `${brand.product} is a university learning platform with a Socratic AI study coach, ${brand.adaptTool} for accessible course content, and enterprise-grade security.`,
  ],
  [
    '/platform-overview',
    `Dual environments, three roles and the full feature suite of ${brand.product}: course library, AI study coach, notes, flashcards, goals and analytics.`,
  ],
  [
    '/ai-study-coach',
    `${brand.product}'s AI study coach tutors with the Socratic method: guiding questions, hints and refreshers instead of answers.`,
  ],
  [
    adaptPath,
    `${brand.adaptTool} turns SCORM packages, PDF, DOCX and text into accessible lessons, quizzes and audio, and delivers them to your LMS.`,
  ],
  ['/release-notes', `What runs in the ${brand.product} beta of August 2025, and what is planned.`],
  [
    '/system-architecture',
    `How ${brand.product} is built: web app, edge functions, auth, database and storage, and where GDPR deletion and export run.`,
  ],
  [
    '/data-quotas',
    `Usage quotas per subscription tier, how usage is tracked and when quotas reset in ${brand.product}.`,
  ],
  [
    '/api-access',
    `${brand.product}'s API for an institution's systems, with organization API keys: users, enrolments, progress, assessments and export.`,
  ],
  [
    '/sso-integration',
    `Enterprise single sign-on for ${brand.product} with SAML 2.0 and OpenID Connect: attributes, assertion consumer service and set-up steps.`,
  ],
  [
    '/technical-support-sla',
    `${brand.product} support channels, first-response targets by priority and the 99.9% monthly uptime commitment.`,
  ],
  [
    '/security-compliance',
    `${brand.product}'s security controls and compliance programme: GDPR, FERPA, HIPAA, row-level security and audit logging.`,
  ],
  [
    '/user-roles-permissions',
    `The four standard roles in ${brand.product} — Student, Instructor, Org Admin and Compliance Officer — and what each may do.`,
  ],
  [
    '/privacy-gdpr',
    `How ${brand.company} collects, uses and protects personal data, and how to exercise your GDPR rights. Last updated October 3, 2025.`,
  ],
  [
    '/data-breach-response',
    `${brand.product}'s four-phase data breach response plan and notification deadlines under GDPR and HIPAA. Effective October 3, 2025.`,
  ],
  [
    '/data-encryption',
    `Encryption in ${brand.product}: TLS 1.3 in transit, AES-256 at rest, keys held in a cloud key management service.`,
  ],
  [
    '/data-hosting',
    `Where ${brand.product} stores data: one primary region, us-east-1 (Northern Virginia), with no secondary storage location.`,
  ],
  [
    '/security-audits',
    `Vendor certifications, ${brand.product}'s certification roadmap (SOC 2 Type II, ISO 27001, FERPA) and annual penetration testing.`,
  ],
]);

export function routeDescription(path: string): string | undefined {
  return descriptions.get(path);
}

export const describedPaths: readonly string[] = [...descriptions.keys()];
