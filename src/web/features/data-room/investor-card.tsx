import { ArrowRight, LockKeyhole } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { preloadAccessDialog, useDataRoomEntry } from './use-data-room-entry';

/** Home page card that leads investors to the data room (through the PIN dialog). */
export function InvestorCard() {
  const { enter, dialog } = useDataRoomEntry();
  return (
    <section aria-labelledby="investor-data-room-heading">
      <Card className="border-primary/30 bg-gradient-to-br from-secondary to-background">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-xl">
            <LockKeyhole className="size-5 text-primary" aria-hidden="true" />
            <h2 id="investor-data-room-heading">Investor Data Room</h2>
          </CardTitle>
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
