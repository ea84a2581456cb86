/**
 * The signed-in user's consent on the server: read, set (banner and settings), withdraw one
 * category (the spec's withdraw_user_consent), and the app shell's sync between this browser's
 * choice and the server's record (decision 0410).
 */
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  consentPolicyVersion,
  optionalConsentCategories,
  type ConsentChoices,
  type OptionalConsentCategory,
} from '@common/consent';
import { saveConsent } from '@/lib/consent';
import { readConsent, subscribeConsent, type ConsentRecord } from '@/lib/consent-state';
import { getSupabase } from '@/lib/supabase';
import { privacyKeys } from './privacy-keys';

interface ServerConsent {
  policy_version: string;
  decided_at: string;
  choices: Partial<ConsentChoices> | null;
}

function toRecord(value: ServerConsent | null): ConsentRecord | null {
  if (!value) return null;
  const choices = {} as ConsentChoices;
  for (const category of optionalConsentCategories) {
    choices[category] = value.choices?.[category] === true;
  }
  return { policyVersion: value.policy_version, decidedAt: value.decided_at, choices };
}

export async function getMyConsent(): Promise<ConsentRecord | null> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('get_my_consent');
  if (error) throw new Error(error.message);
  return toRecord(data as ServerConsent | null);
}

export async function setMyConsent(
  choices: ConsentChoices,
  source: 'banner' | 'settings',
): Promise<ConsentRecord> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('set_user_consent', {
    choices,
    policy_version: consentPolicyVersion,
    source,
  });
  if (error) throw new Error(error.message);
  return toRecord(data as ServerConsent)!;
}

export async function withdrawMyConsent(category: OptionalConsentCategory): Promise<ConsentRecord> {
  const client = await getSupabase();
  const { data, error } = await client.rpc('withdraw_user_consent', { category });
  if (error) throw new Error(error.message);
  return toRecord(data as ServerConsent)!;
}

export function useServerConsent(userId: string) {
  return useQuery({ queryKey: privacyKeys.consent(userId), queryFn: getMyConsent });
}

/**
 * The settings' save: each category turned off is a withdrawal, recorded as one; the rest is
 * one set_user_consent. The browser then holds exactly what the server recorded.
 */
export function useSaveConsentSettings(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      before,
      after,
    }: {
      before: ConsentChoices | null;
      after: ConsentChoices;
    }): Promise<ConsentRecord> => {
      const withdrawn = optionalConsentCategories.filter((c) => before?.[c] && !after[c]);
      let record = await setMyConsent(
        { ...after, ...Object.fromEntries(withdrawn.map((c) => [c, true])) },
        'settings',
      );
      for (const category of withdrawn) record = await withdrawMyConsent(category);
      return record;
    },
    onSuccess: (record) => {
      saveConsent(record.choices, 'server', record.decidedAt);
      queryClient.setQueryData(privacyKeys.consent(userId), record);
    },
  });
}

/**
 * Keeps this browser and the server in step for a signed-in user: a newer record on the
 * server (chosen on another device) is adopted here; a choice made here before signing in,
 * or in the banner while signed in, is recorded on the server.
 */
export function useConsentSync(userId: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let active = true;
    const push = (record: ConsentRecord) =>
      setMyConsent(record.choices, 'banner')
        .then((saved) => queryClient.setQueryData(privacyKeys.consent(userId), saved))
        .catch(async (error: unknown) => {
          const { toast } = await import('sonner');
          toast.error(
            `Your privacy choice was kept in this browser but not saved to your account: ${(error as Error).message}`,
          );
        });
    void getMyConsent()
      .then((server) => {
        if (!active) return;
        const local = readConsent();
        if (
          server &&
          server.policyVersion === consentPolicyVersion &&
          (!local || Date.parse(server.decidedAt) >= Date.parse(local.decidedAt))
        ) {
          saveConsent(server.choices, 'server', server.decidedAt);
        } else if (local) {
          void push(local);
        }
      })
      .catch(() => undefined);
    const unsubscribe = subscribeConsent((record, origin) => {
      if (record && origin === 'visitor') void push(record);
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [userId, queryClient]);
}
