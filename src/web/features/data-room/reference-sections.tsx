/** The page's reading aids below the documents: checklist, requests, instructions, terms. */
import { CheckCircle2, FileLock2, Mail, PackageOpen, ShieldAlert } from 'lucide-react';
import { brand } from '@common/brand';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import type { DataRoomDocument, DataRoomOverview } from '@common/data-room';
import { formatLongDate } from './format';

const checklist: { column: string; items: string[] }[] = [
  {
    column: 'Financial',
    items: [
      '5-year projections in base, optimistic and conservative scenarios',
      'Unit economics and funding requirements for the €4M seed round',
      'Capitalization table before and after the round',
    ],
  },
  {
    column: 'Legal',
    items: [
      'Formation documents, bylaws and board resolutions',
      'IP assignment agreements and patent and trademark strategy',
      'Regulatory framework for GDPR and FERPA',
      'Risk assessment matrix with mitigations',
    ],
  },
  {
    column: 'Commercial',
    items: [
      'Product roadmap',
      'Pilot results from the beta institutions',
      'Technical architecture and security model',
      'Team background and founder biography',
    ],
  },
];

const onRequest = [
  'Signed PDF versions of every document',
  'Management accounts and bank statements for the last 12 months',
  'The financial model as a spreadsheet',
  'Reference calls with pilot institutions',
  'A walkthrough of the source code with the engineering team',
];

function SectionTitle({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <CardTitle>
      <h2 id={id} className="text-lg">
        {children}
      </h2>
    </CardTitle>
  );
}

export function ChecklistCard() {
  return (
    <Card aria-labelledby="dd-checklist-heading">
      <CardHeader>
        <SectionTitle id="dd-checklist-heading">Due Diligence Checklist</SectionTitle>
        <CardDescription>What this data room covers, by area of review.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-3">
        {checklist.map(({ column, items }) => (
          <div key={column}>
            <h3 className="mb-2 font-semibold">{column}</h3>
            <ul className="space-y-2 text-sm">
              {items.map((item) => (
                <li key={item} className="flex gap-2">
                  <CheckCircle2
                    className="mt-0.5 size-4 shrink-0 text-success"
                    aria-hidden="true"
                  />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </CardContent>
    </Card>
  );
}

export function OnRequestCard() {
  return (
    <Card aria-labelledby="dd-on-request-heading">
      <CardHeader>
        <SectionTitle id="dd-on-request-heading">Additional Materials on Request</SectionTitle>
        <CardDescription>
          Ask investor relations for any of these; we usually provide them within two business days.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-2 text-sm">
          {onRequest.map((item) => (
            <li key={item} className="flex gap-2">
              <PackageOpen className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
              <span>{item}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** The folder tree comes from the registry, so it always matches what is in the room. */
function folderTree(documents: DataRoomDocument[]): string {
  const counts = new Map<string, number>();
  for (const doc of documents) {
    const folder = doc.path.split('/')[0]!;
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  const folders = [...counts.entries()];
  const lines = folders.map(([folder, count], index) => {
    const branch = index === folders.length - 1 ? '└──' : '├──';
    return `${branch} ${`${folder}/`.padEnd(16)} ${count} document${count === 1 ? '' : 's'}`;
  });
  return ['investor-pack/', ...lines].join('\n');
}

export function AccessInstructionsCard({
  documents,
}: {
  documents: DataRoomDocument[] | undefined;
}) {
  return (
    <Card aria-labelledby="dd-instructions-heading">
      <CardHeader>
        <SectionTitle id="dd-instructions-heading">Document Access Instructions</SectionTitle>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <pre
          tabIndex={0}
          className="overflow-x-auto rounded-md bg-muted p-4 font-mono text-xs leading-5"
          aria-label="Investor pack folders"
        >
          {documents ? folderTree(documents) : 'investor-pack/'}
        </pre>
        <ul className="space-y-2 text-sm">
          <li>
            <strong>Format:</strong> Markdown is the primary format; PDF versions are available on
            request.
          </li>
          <li>
            <strong>Versions:</strong> every document carries a version number; the tables show the
            current one and the data room keeps the history.
          </li>
          <li>
            <strong>Marking:</strong> every document is marked confidential.
          </li>
          <li>
            <strong>Reading:</strong> choose a file name to open the document here; use Download to
            keep a copy under the confidentiality terms below.
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}

export function ConfidentialityCard() {
  return (
    <Card aria-labelledby="dd-confidentiality-heading" className="border-destructive/30">
      <CardHeader>
        <div className="flex items-center gap-2">
          <ShieldAlert className="size-5 text-destructive" aria-hidden="true" />
          <SectionTitle id="dd-confidentiality-heading">Confidentiality</SectionTitle>
        </div>
      </CardHeader>
      <CardContent>
        <ul className="list-disc space-y-2 pl-5 text-sm">
          <li>A signed non-disclosure agreement is required before access.</li>
          <li>
            Share documents only with advisers bound by the same obligations; do not forward,
            publish or upload them elsewhere.
          </li>
          <li>Return or destroy all materials, including copies, on request.</li>
          <li>
            Each document opened or downloaded is recorded with the time and your access grant.
          </li>
        </ul>
      </CardContent>
    </Card>
  );
}

export function ContactCard() {
  return (
    <Card aria-labelledby="dd-contact-heading">
      <CardHeader>
        <SectionTitle id="dd-contact-heading">Contact</SectionTitle>
      </CardHeader>
      <CardContent className="flex items-start gap-3 text-sm">
        <Mail className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
        <p>
          Investor relations, {brand.company}:{' '}
          <a
            className="font-medium text-info underline underline-offset-2"
            href={`mailto:${brand.investorEmail}`}
          >
            {brand.investorEmail}
          </a>
          . We answer questions within two business days.
        </p>
      </CardContent>
    </Card>
  );
}

export function SummaryCard({ overview }: { overview: DataRoomOverview | undefined }) {
  const rows: [string, string][] = overview
    ? [
        ['Documents available', String(overview.availableDocuments)],
        ['Listed documents available', `${overview.availabilityPercent}%`],
        ['Classification', 'Confidential - Qualified Investors Only'],
        ['Version', overview.edition ?? '—'],
        ['Last updated', overview.lastUpdated ? formatLongDate(overview.lastUpdated) : '—'],
      ]
    : [];
  return (
    <Card aria-labelledby="dd-summary-heading" className="bg-secondary/60">
      <CardHeader>
        <div className="flex items-center gap-2">
          <FileLock2 className="size-5 text-primary" aria-hidden="true" />
          <SectionTitle id="dd-summary-heading">Summary</SectionTitle>
        </div>
      </CardHeader>
      <CardContent>
        {overview ? (
          <dl
            className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]"
            data-testid="data-room-summary"
          >
            {rows.map(([term, value]) => (
              <div key={term} className="contents">
                <dt className="text-muted-foreground">{term}</dt>
                <dd className="font-medium">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">Loading...</p>
        )}
      </CardContent>
    </Card>
  );
}
