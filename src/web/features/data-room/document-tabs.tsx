import { FileText } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/utils';
import type { DataRoomDocument, DataRoomTab } from '@common/data-room';
import { formatMonthYear } from './format';

const tabs: { value: DataRoomTab; label: string }[] = [
  { value: 'legal', label: 'Legal' },
  { value: 'financial', label: 'Financial' },
  { value: 'business', label: 'Business' },
  { value: 'other', label: 'Other' },
];

interface Section {
  key: string;
  heading: string;
  documents: DataRoomDocument[];
}

function sectionsOf(documents: DataRoomDocument[], tab: DataRoomTab): Section[] {
  const sections = new Map<string, Section>();
  for (const doc of documents.filter((d) => d.tab === tab)) {
    const key = `${doc.sectionNumber} ${doc.sectionTitle}`;
    let section = sections.get(key);
    if (!section) {
      section = { key, heading: key.trim(), documents: [] };
      sections.set(key, section);
    }
    section.documents.push(doc);
  }
  return [...sections.values()];
}

function DocumentRow({ doc, onOpen }: { doc: DataRoomDocument; onOpen: (path: string) => void }) {
  const available = doc.status === 'Available';
  return (
    <tr className="border-b last:border-0">
      <td className="py-3 pr-3 align-top">
        <p className="font-medium text-foreground">{doc.name}</p>
        <button
          type="button"
          onClick={() => onOpen(doc.path)}
          className="mt-1 inline-flex items-start gap-1 text-left font-mono text-xs break-all text-info underline-offset-2 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <FileText className="mt-px size-3.5 shrink-0" aria-hidden="true" />
          {doc.path}
        </button>
        {/* Phones have no room for the date column; the date moves under the file. */}
        <p className="mt-1 text-xs text-muted-foreground sm:hidden">{formatMonthYear(doc.date)}</p>
      </td>
      <td className="px-2 py-3 align-top whitespace-nowrap tabular-nums">v{doc.version}</td>
      <td className="px-2 py-3 align-top whitespace-nowrap max-sm:hidden">
        {formatMonthYear(doc.date)}
      </td>
      <td className="py-3 pl-2 align-top">
        <Badge
          variant="outline"
          className={cn(
            available ? 'border-success/40 text-success' : 'border-destructive/40 text-destructive',
          )}
        >
          {doc.status}
        </Badge>
      </td>
    </tr>
  );
}

function SectionCard({ section, onOpen }: { section: Section; onOpen: (path: string) => void }) {
  return (
    <Card className="gap-3 py-4">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle>
          <h3 className="text-base">{section.heading}</h3>
        </CardTitle>
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        <table className="w-full table-fixed text-sm">
          <caption className="sr-only">Documents in {section.heading}</caption>
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              <th scope="col" className="pr-3 pb-2 font-medium">
                Document
              </th>
              <th scope="col" className="w-14 px-2 pb-2 font-medium sm:w-24">
                Version
              </th>
              <th scope="col" className="w-28 px-2 pb-2 font-medium max-sm:hidden">
                Date
              </th>
              <th scope="col" className="w-24 pb-2 pl-2 font-medium sm:w-28">
                Status
              </th>
            </tr>
          </thead>
          <tbody>
            {section.documents.map((doc) => (
              <DocumentRow key={doc.id} doc={doc} onOpen={onOpen} />
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}

export function DocumentTabs({
  documents,
  onOpen,
}: {
  documents: DataRoomDocument[] | undefined;
  onOpen: (path: string) => void;
}) {
  return (
    <section aria-labelledby="data-room-documents-heading" className="space-y-3">
      <h2 id="data-room-documents-heading" className="text-xl font-semibold">
        Documents
      </h2>
      <Tabs defaultValue="legal">
        <TabsList className="grid h-auto w-full grid-cols-2 sm:inline-flex sm:w-fit">
          {tabs.map((tab) => (
            <TabsTrigger key={tab.value} value={tab.value} className="px-4 py-1.5">
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {tabs.map((tab) => (
          <TabsContent key={tab.value} value={tab.value} className="mt-3 space-y-4">
            {documents === undefined ? (
              <Skeleton className="h-48 w-full" aria-label="Loading documents" />
            ) : (
              sectionsOf(documents, tab.value).map((section) => (
                <SectionCard key={section.key} section={section} onOpen={onOpen} />
              ))
            )}
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
