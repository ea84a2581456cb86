/**
 * Consent through supabase-js (issue 16): set_user_consent records every optional category
 * with the policy version, withdraw_user_consent records the withdrawal, each change lands in
 * the history, bad input is refused with a sentence, and nobody reads another's choices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentPolicyVersion } from '../../src/common/consent';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { createPrivacyUser, type PrivacyUser } from './privacy-support';

describe.each(databaseKinds)('consent on %s', (kind) => {
  let server: TestServer;
  let alice: PrivacyUser;
  let bob: PrivacyUser;

  beforeAll(async () => {
    server = await startTestServer(kind);
    alice = await createPrivacyUser(server, 'alice');
    bob = await createPrivacyUser(server, 'bob');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('records a choice per category with its policy version, and reads it back', async () => {
    const before = await alice.client.rpc('get_my_consent');
    expect(before.error).toBeNull();
    expect(before.data).toBeNull();

    const set = await alice.client.rpc('set_user_consent', {
      choices: { analytics: false, marketing: false, functional: true },
      policy_version: consentPolicyVersion,
      source: 'banner',
    });
    expect(set.error).toBeNull();
    expect(set.data).toMatchObject({
      policy_version: consentPolicyVersion,
      choices: { analytics: false, marketing: false, functional: true },
    });

    const rows = await alice.client
      .from('user_consent')
      .select('category, granted, policy_version, source')
      .order('category');
    expect(rows.data).toEqual([
      {
        category: 'analytics',
        granted: false,
        policy_version: consentPolicyVersion,
        source: 'banner',
      },
      {
        category: 'essential',
        granted: true,
        policy_version: consentPolicyVersion,
        source: 'banner',
      },
      {
        category: 'functional',
        granted: true,
        policy_version: consentPolicyVersion,
        source: 'banner',
      },
      {
        category: 'marketing',
        granted: false,
        policy_version: consentPolicyVersion,
        source: 'banner',
      },
    ]);
  });

  it('withdraws one category, keeps the others and records when', async () => {
    await alice.client.rpc('set_user_consent', {
      choices: { analytics: true, marketing: true, functional: true },
      policy_version: consentPolicyVersion,
      source: 'settings',
    });
    const withdrawn = await alice.client.rpc('withdraw_user_consent', { category: 'marketing' });
    expect(withdrawn.error).toBeNull();
    expect(withdrawn.data).toMatchObject({
      choices: { analytics: true, marketing: false, functional: true },
    });

    const history = await alice.client
      .from('user_consent_history')
      .select('category, granted, source, policy_version, recorded_at')
      .eq('category', 'marketing')
      .order('id');
    expect(history.data?.map((h) => [h.granted, h.source])).toEqual([
      [false, 'banner'],
      [true, 'settings'],
      [false, 'withdrawal'],
    ]);
    for (const h of history.data ?? []) {
      expect(h.policy_version).toBe(consentPolicyVersion);
      expect(Number.isNaN(Date.parse(h.recorded_at as string))).toBe(false);
    }
  });

  it('refuses essential, unknown categories, missing values and unknown policy versions', async () => {
    const essential = await alice.client.rpc('withdraw_user_consent', { category: 'essential' });
    expect(essential.error?.message).toMatch(/Essential storage .* cannot be withdrawn/);
    const unknown = await alice.client.rpc('withdraw_user_consent', { category: 'advertising' });
    expect(unknown.error?.message).toBe('category must be analytics, marketing or functional');

    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { choices: { analytics: false, marketing: false }, policy_version: consentPolicyVersion },
        /choices\.functional must be true or false/,
      ],
      [
        {
          choices: { analytics: 'yes', marketing: false, functional: false },
          policy_version: consentPolicyVersion,
        },
        /choices\.analytics must be true or false/,
      ],
      [
        {
          choices: { essential: false, analytics: false, marketing: false, functional: false },
          policy_version: consentPolicyVersion,
        },
        /cannot be switched off/,
      ],
      [
        {
          choices: { tracking: true, analytics: false, marketing: false, functional: false },
          policy_version: consentPolicyVersion,
        },
        /Unknown consent category "tracking"/,
      ],
      [{ choices: [true], policy_version: consentPolicyVersion }, /choices must be an object/],
      [
        {
          choices: { analytics: false, marketing: false, functional: false },
          policy_version: '1999-01-01',
        },
        /Unknown consent policy version "1999-01-01"/,
      ],
      [
        {
          choices: { analytics: false, marketing: false, functional: false },
          policy_version: consentPolicyVersion,
          source: 'withdrawal',
        },
        /source must be banner or settings/,
      ],
    ];
    for (const [args, message] of cases) {
      const { error } = await bob.client.rpc('set_user_consent', args);
      expect(error?.message, JSON.stringify(args)).toMatch(message);
    }
    const bobs = await server
      .service()
      .from('user_consent')
      .select('category')
      .eq('user_id', bob.id);
    expect(bobs.data).toEqual([]);
  });

  it('shows each user only their own choices and refuses a visitor', async () => {
    const seen = await bob.client.from('user_consent').select('user_id');
    expect(seen.data).toEqual([]);
    const history = await bob.client.from('user_consent_history').select('user_id');
    expect(history.data).toEqual([]);

    const forged = await bob.client.from('user_consent').insert({
      user_id: alice.id,
      category: 'marketing',
      granted: true,
      policy_version: consentPolicyVersion,
      source: 'banner',
    });
    expect(forged.error).not.toBeNull();
    const edit = await alice.client
      .from('user_consent')
      .update({ granted: true })
      .eq('category', 'marketing')
      .select();
    expect(edit.error).not.toBeNull();

    const anon = await server.anon().rpc('withdraw_user_consent', { category: 'analytics' });
    expect(anon.error).not.toBeNull();
    const anonSet = await server.anon().rpc('set_user_consent', {
      choices: { analytics: false, marketing: false, functional: false },
      policy_version: consentPolicyVersion,
    });
    expect(anonSet.error).not.toBeNull();
  });
});
