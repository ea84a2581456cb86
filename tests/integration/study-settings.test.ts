/**
 * The learner's settings (decision 0170) through supabase-js: preferences are one row per user
 * that nobody else reads or writes, bad values are refused with a message that says what was
 * wrong, and the public avatars bucket takes only small images, each user in their own folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';
import { confirmedUser } from './auth-support';

/** A valid 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAX+XDSwAAAABJRU5ErkJggg==',
  ),
  (c) => c.charCodeAt(0),
);

async function userId(client: SupabaseClient): Promise<string> {
  return (await client.auth.getUser()).data.user!.id;
}

describe.each(databaseKinds)('learner settings on %s', (kind) => {
  let server: TestServer;
  let alice: SupabaseClient;
  let bob: SupabaseClient;
  let aliceId: string;
  let bobId: string;

  beforeAll(async () => {
    server = await startTestServer(kind, { AUTH_RATE_LIMIT_SIGN_IN: '1000' });
    alice = (await confirmedUser(server)).client;
    bob = (await confirmedUser(server)).client;
    aliceId = await userId(alice);
    bobId = await userId(bob);
  });
  afterAll(() => server?.stop());

  it('keeps preferences per user: saved, read back, and invisible to everyone else', async () => {
    const none = await alice.from('user_preferences').select('*').eq('user_id', aliceId);
    expect(none.data).toEqual([]);

    const saved = await alice
      .from('user_preferences')
      .upsert({
        user_id: aliceId,
        text_size: 'larger',
        line_spacing: 'relaxed',
        font: 'dyslexic',
        high_contrast: true,
        time_zone: 'Asia/Tokyo',
      })
      .select()
      .single();
    expect(saved.error).toBeNull();
    expect(saved.data).toMatchObject({
      text_size: 'larger',
      font: 'dyslexic',
      reduced_motion: false,
      leaderboard_opt_in: false,
      time_zone: 'Asia/Tokyo',
    });

    // Bob sees nothing of Alice's, and his writes to her row touch nothing.
    expect((await bob.from('user_preferences').select('*').eq('user_id', aliceId)).data).toEqual(
      [],
    );
    const hijack = await bob
      .from('user_preferences')
      .update({ text_size: 'default' })
      .eq('user_id', aliceId)
      .select();
    expect(hijack.data).toEqual([]);
    const forged = await bob.from('user_preferences').insert({ user_id: aliceId });
    expect(forged.error).toMatchObject({ code: '42501' });
    const impostor = await bob
      .from('user_preferences')
      .upsert({ user_id: bobId, text_size: 'large' })
      .select('user_id');
    expect(impostor.data).toEqual([{ user_id: bobId }]);
    const check = await server
      .service()
      .from('user_preferences')
      .select('text_size')
      .eq('user_id', aliceId)
      .single();
    expect(check.data).toEqual({ text_size: 'larger' });

    const anonRead = await server.anon().from('user_preferences').select('*');
    expect(anonRead.error).toMatchObject({ code: '42501' });
  });

  it('refuses an unknown time zone or option with a message naming it', async () => {
    const zone = await alice
      .from('user_preferences')
      .update({ time_zone: 'Mars/Olympus_Mons' })
      .eq('user_id', aliceId);
    expect(zone.error).toMatchObject({
      code: '22023',
      message: 'Unknown time zone "Mars/Olympus_Mons"',
    });
    const size = await alice
      .from('user_preferences')
      .update({ text_size: 'enormous' })
      .eq('user_id', aliceId);
    expect(size.error).toMatchObject({ code: '23514' });
    const kept = await alice.from('user_preferences').select('time_zone, text_size').single();
    expect(kept.data).toEqual({ time_zone: 'Asia/Tokyo', text_size: 'larger' });
  });

  it('takes a small image into the own folder of the public avatars bucket', async () => {
    const name = `${aliceId}/avatar-1.png`;
    const up = await alice.storage
      .from('avatars')
      .upload(name, new Blob([PNG], { type: 'image/png' }), { contentType: 'image/png' });
    expect(up.error).toBeNull();
    const url = alice.storage.from('avatars').getPublicUrl(name).data.publicUrl;
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);

    // Bob can neither write into Alice's folder nor remove her picture.
    const intruder = await bob.storage
      .from('avatars')
      .upload(`${aliceId}/avatar-2.png`, new Blob([PNG], { type: 'image/png' }), {
        contentType: 'image/png',
      });
    expect(intruder.error).toMatchObject({ status: 403 });
    await bob.storage.from('avatars').remove([name]);
    expect((await fetch(url)).status).toBe(200);
  });

  it('refuses a file that is not an image, and one over 1 MB', async () => {
    const text = await alice.storage
      .from('avatars')
      .upload(`${aliceId}/avatar.txt`, new Blob(['hello'], { type: 'text/plain' }), {
        contentType: 'text/plain',
      });
    expect(text.error).toMatchObject({ status: 415, code: 'InvalidMimeType' });
    const huge = await alice.storage
      .from('avatars')
      .upload(
        `${aliceId}/huge.png`,
        new Blob([new Uint8Array(1024 * 1024 + 1)], { type: 'image/png' }),
        {
          contentType: 'image/png',
        },
      );
    expect(huge.error).toMatchObject({ status: 413, code: 'EntityTooLarge' });
  });
});
