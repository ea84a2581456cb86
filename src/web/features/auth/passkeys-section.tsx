import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { usePasskeys, usePasskeysEnabled, useAddPasskey, useRemovePasskey } from './api/passkeys';
import { authErrorMessage } from './auth-errors';
import { Panel } from './auth-ui';
import { addedOn, CredentialList } from './credential-list';

const date = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** The account's passkeys: add one on this device, see when each was last used, remove one. */
export function PasskeysSection() {
  const enabled = usePasskeysEnabled();
  const list = usePasskeys(enabled.data === true);
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [status, setStatus] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  if (enabled.data !== true) return null;

  function addOne() {
    setStatus(null);
    add.mutate(undefined, {
      onSuccess: () => setStatus({ kind: 'success', text: 'Passkey added.' }),
      onError: (error) => setStatus({ kind: 'error', text: authErrorMessage(error) }),
    });
  }

  function removeOne(id: string, name: string) {
    setStatus(null);
    remove.mutate(id, {
      onSuccess: () => setStatus({ kind: 'success', text: `${name} removed.` }),
      onError: (error) => setStatus({ kind: 'error', text: authErrorMessage(error) }),
    });
  }

  const passkeys = list.data ?? [];
  return (
    <Panel aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" className="text-lg font-semibold">
        Passkeys
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Sign in with your fingerprint, face, screen lock or security key instead of a password.
      </p>
      {list.isPending && (
        <p className="mt-4 text-sm" aria-busy="true">
          Loading passkeys…
        </p>
      )}
      {list.data && passkeys.length === 0 && (
        <p className="mt-4 text-sm">You have no passkeys yet.</p>
      )}
      {passkeys.length > 0 && (
        <CredentialList
          label="Your passkeys"
          items={passkeys.map((p) => ({
            id: p.id,
            name: p.friendly_name || 'Passkey',
            detail: `${addedOn(p.created_at)}${p.last_used_at ? ` · last used ${date(p.last_used_at)}` : ' · not used yet'}`,
          }))}
          busy={remove.isPending}
          onRemove={(item) => removeOne(item.id, item.name)}
        />
      )}
      {status && (
        <div className="mt-4">
          <Notice tone={status.kind}>{status.text}</Notice>
        </div>
      )}
      <Button type="button" className="mt-4" disabled={add.isPending} onClick={addOne}>
        <KeyRound aria-hidden="true" />
        {add.isPending ? 'Waiting for your device…' : 'Add a passkey'}
      </Button>
    </Panel>
  );
}
