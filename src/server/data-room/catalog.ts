/**
 * The investor pack as first seeded: which file under content/data-room/ is which registry
 * entry. After the first start the registry table is the source of truth (admins add versions).
 */
import { MASTER_README_PATH, type DataRoomTab } from '../../common/data-room';

export interface CatalogDocument {
  tab: DataRoomTab;
  sectionNumber: string;
  sectionTitle: string;
  name: string;
  /** Object name in the data-room bucket and file under content/data-room/. */
  path: string;
  version: string;
  /** ISO date of this version. */
  date: string;
}

interface Section {
  tab: DataRoomTab;
  number: string;
  title: string;
  documents: [name: string, path: string, version?: string, date?: string][];
}

const sections: Section[] = [
  {
    tab: 'legal',
    number: '1.1',
    title: 'Formation and Corporate Structure',
    documents: [
      ['Articles of Incorporation', 'legal/articles-of-incorporation.md'],
      ['Certificate of Incorporation', 'legal/certificate-of-incorporation.md'],
      ['Bylaws', 'legal/bylaws.md'],
      ['Board Resolutions', 'legal/board-resolutions.md'],
      ['Shareholder Agreements', 'legal/shareholder-agreements.md'],
      ['Capitalization Table', 'legal/capitalization-table.md', '2.0', '2025-10-04'],
    ],
  },
  {
    tab: 'legal',
    number: '1.2',
    title: 'Intellectual Property',
    documents: [
      ['IP Assignment Agreements', 'legal/ip-assignment-agreements.md'],
      ['Patent Applications', 'legal/patent-applications.md'],
      ['Patent and Trademark Strategy', 'legal/patent-trademark-strategy.md'],
    ],
  },
  {
    tab: 'legal',
    number: '1.3',
    title: 'Material Contracts',
    documents: [
      ['Material Contracts Overview', 'legal/material-contracts-overview.md'],
      ['Term Sheet Template', 'legal/term-sheet-template.md'],
    ],
  },
  {
    tab: 'financial',
    number: '2.1',
    title: 'Financial Statements and Projections',
    documents: [
      ['Detailed Financial Model', 'financial/financial-model.md', '3.0', '2025-10-04'],
      ['Unit Economics', 'financial/unit-economics.md', '2.0', '2025-10-03'],
      ['Scenario Analysis', 'financial/scenario-analysis.md', '1.0', '2025-10-03'],
    ],
  },
  {
    tab: 'financial',
    number: '2.2',
    title: 'Funding and Valuation',
    documents: [['Funding Requirements', 'financial/funding-requirements.md', '2.0', '2025-10-04']],
  },
  {
    tab: 'business',
    number: '3.1',
    title: 'Business Plan',
    documents: [
      ['Executive Summary', 'marketing/executive-summary.md', '2.0', '2025-10-04'],
      ['Business Plan', 'marketing/business-plan.md', '2.0', '2025-10-04'],
      ['Market Analysis', 'marketing/market-analysis.md', '2.0', '2025-10-02'],
      ['Go-to-Market Strategy', 'marketing/go-to-market.md', '1.0', '2025-10-02'],
      ['Product Roadmap', 'technical/product-roadmap.md', '1.0', '2025-10-02'],
    ],
  },
  {
    tab: 'business',
    number: '3.2',
    title: 'Customer and Market Research',
    documents: [
      ['Pilot Results', 'marketing/pilot-results.md'],
      ['Testimonials', 'marketing/testimonials.md'],
    ],
  },
  {
    tab: 'business',
    number: '4',
    title: 'Technology',
    documents: [
      ['Platform Architecture', 'technical/platform-architecture.md', '2.0', '2025-10-03'],
    ],
  },
  {
    tab: 'business',
    number: '5.1',
    title: 'Management Team',
    documents: [['Founder Biography', 'team/founder-biography.md', '2.0', '2025-10-01']],
  },
  {
    tab: 'business',
    number: '5.2',
    title: 'Employment',
    documents: [['Employee Handbook', 'hr/employee-handbook.md']],
  },
  {
    tab: 'other',
    number: '6.1',
    title: 'Data Protection',
    documents: [
      ['Privacy Policy', 'compliance/privacy-policy.md'],
      ['Data Processing Agreements', 'compliance/data-processing-agreements.md'],
      ['Security and Compliance Overview', 'compliance/security-compliance-overview.md'],
    ],
  },
  {
    tab: 'other',
    number: '6.2',
    title: 'Educational Compliance',
    documents: [['Certifications', 'compliance/certifications.md']],
  },
  {
    tab: 'other',
    number: '7',
    title: 'Operations',
    documents: [['Risk Assessment Matrix', 'compliance/risk-assessment-matrix.md']],
  },
  {
    tab: 'other',
    number: '8',
    title: 'Legal and Regulatory',
    documents: [['Insurance Documentation', 'compliance/insurance-documentation.md']],
  },
  {
    tab: 'other',
    number: '',
    title: 'Additional Supporting Documents',
    documents: [
      ['Master README', MASTER_README_PATH, '2.0', '2025-10-04'],
      ['Gap Analysis', 'due_diligence/gap-analysis.md'],
      ['Investor Pack Summary', 'due_diligence/investor-pack-summary.md', '2.0', '2025-10-04'],
      ['Due Diligence Checklist', 'due_diligence/due-diligence-checklist.md'],
    ],
  },
];

/** The version date most documents carry (spec: 'Oct 2025'). */
const DEFAULT_DATE = '2025-10-01';

export const catalog: readonly CatalogDocument[] = sections.flatMap((section) =>
  section.documents.map(([name, path, version, date]) => ({
    tab: section.tab,
    sectionNumber: section.number,
    sectionTitle: section.title,
    name,
    path,
    version: version ?? '1.0',
    date: date ?? DEFAULT_DATE,
  })),
);
