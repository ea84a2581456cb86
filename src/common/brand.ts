/** Every brand string lives here so a customer can rebrand in one place. */
export const brand = {
  product: 'Lyceum',
  headerTitle: 'Lyceum Learning Platform',
  company: 'Lyceum Education',
  initials: 'LE',
  adaptTool: 'LE Adapt',
  coach: 'AI Study Coach',
  tagline: 'Next-Generation Educational Technology Solution',
  supportEmail: 'support@lyceum.education',
  privacyEmail: 'privacy@lyceum.education',
  securityEmail: 'security@lyceum.education',
  investorEmail: 'investors@lyceum.education',
  copyrightYear: 2024,
} as const;

export type Brand = typeof brand;

/** Builds the browser title for a page: "Page | Lyceum". */
export function pageTitle(label: string): string {
  return `${label} | ${brand.product}`;
}
