/** Verifies the audit log's hash chain on the server and says what it found (decision 0401). */
import { ShieldCheck } from 'lucide-react';
import { Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useVerifyChain } from './api/audit-log';

export function ChainCheck() {
  const verify = useVerifyChain();
  return (
    <Section
      title="Audit chain"
      id="audit-chain"
      description="Each entry carries the hash of the one before it. Verifying walks the whole log and names the first entry that was changed or removed, even by the database's owner."
    >
      <div className="flex flex-wrap items-center gap-3">
        <Button onClick={() => verify.mutate()} disabled={verify.isPending}>
          <ShieldCheck aria-hidden="true" />
          {verify.isPending ? 'Verifying…' : 'Verify the chain'}
        </Button>
        <div aria-live="polite" className="min-w-0 flex-1">
          {verify.isError && <Notice tone="error">Not verified: {verify.error.message}</Notice>}
          {verify.data &&
            (verify.data.ok ? (
              <Notice tone="success">
                The chain is intact: {verify.data.checked.toLocaleString('en')} entries checked.
              </Notice>
            ) : (
              <Notice tone="error">
                The chain is broken at entry {verify.data.first_broken_id}: {verify.data.problem}.
                Entries before it ({(verify.data.checked - 1).toLocaleString('en')}) are intact.
              </Notice>
            ))}
        </div>
      </div>
    </Section>
  );
}
