import { ArrowRight, LockKeyhole } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { preloadAccessDialog, useDataRoomEntry } from './use-data-room-entry';

/** Home page card that leads investors to the data room (through the PIN dialog). */
export function InvestorCard() {
  const { enter, dialog } = useDataRoomEntry();
  return (
    <section aria-labelledby="investor-data-room-heading">
      <Card className="border-primary/30 bg-linear-to-br from-secondary to-background">
        <CardHeader>
          {/* CardTitle's leading-snug would win over text-xl's own line height: the public
              site composes classes without tailwind-merge (decision 0190). */}
          <div data-slot="card-title" className="flex items-center gap-2 text-xl font-semibold">
            <LockKeyhole className="size-5 text-primary" aria-hidden="true" />
            <h2 id="investor-data-room-heading">Investor Data Room</h2>
          </div>
          <CardDescription>
            Due diligence documentation for our seed round: financial model and projections, legal
            and corporate records, compliance, team and technology. For qualified investors only;
            access requires the PIN shared with you.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button
            type="button"
            onClick={enter}
            onPointerEnter={preloadAccessDialog}
            onFocus={preloadAccessDialog}
          >
            Open Data Room
            <ArrowRight aria-hidden="true" />
          </Button>
        </CardContent>
      </Card>
      {dialog}
    </section>
  );
}
