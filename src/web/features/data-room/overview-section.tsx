import { BookOpenCheck, Clock, FileText, FolderOpen, Percent } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { MASTER_README_PATH, type DataRoomOverview } from '@common/data-room';

/** A reading-time estimate for the whole pack, not a measurement. */
const REVIEW_TIME = '6-8h';

function Stat({
  icon: Icon,
  value,
  label,
}: {
  icon: typeof FileText;
  value: string | undefined;
  label: string;
}) {
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-background p-3 sm:p-4">
      <Icon className="size-6 shrink-0 text-primary max-sm:hidden" aria-hidden="true" />
      <div>
        {value === undefined ? (
          <Skeleton className="h-7 w-12" aria-label="Loading" />
        ) : (
          <p className="text-2xl font-semibold text-foreground tabular-nums">{value}</p>
        )}
        <p className="text-sm text-muted-foreground">{label}</p>
      </div>
    </div>
  );
}

export function OverviewCard({ overview }: { overview: DataRoomOverview | undefined }) {
  return (
    <Card aria-labelledby="data-room-overview-heading" data-testid="data-room-overview">
      <CardHeader>
        <CardTitle>
          <h2 id="data-room-overview-heading" className="text-lg">
            Data Room Overview
          </h2>
        </CardTitle>
        <CardDescription>
          Figures computed from the document registry and the files in the data room.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Stat
            icon={FileText}
            value={overview && String(overview.totalDocuments)}
            label="Total Documents"
          />
          <Stat
            icon={FolderOpen}
            value={overview && String(overview.categories)}
            label="Categories"
          />
          <Stat
            icon={Percent}
            value={overview && `${overview.availabilityPercent}%`}
            label="Available"
          />
          <Stat icon={Clock} value={REVIEW_TIME} label="Review Time" />
        </div>
      </CardContent>
    </Card>
  );
}

export function MasterReadmeCard({ onOpen }: { onOpen: (path: string) => void }) {
  return (
    <Card className="border-highlight/60 bg-highlight/5">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <BookOpenCheck className="size-5 text-primary" aria-hidden="true" />
          <CardTitle>
            <h2 className="text-lg">Master README - Start Here</h2>
          </CardTitle>
          <Badge className="bg-highlight text-foreground">READ FIRST</Badge>
        </div>
        <CardDescription>
          The reading order, the folder map and the conventions of this data room. Start here before
          opening the other documents.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button
          type="button"
          className="h-auto min-h-9 text-left whitespace-normal"
          onClick={() => onOpen(MASTER_README_PATH)}
        >
          <FileText aria-hidden="true" />
          Open {MASTER_README_PATH}
        </Button>
      </CardContent>
    </Card>
  );
}
