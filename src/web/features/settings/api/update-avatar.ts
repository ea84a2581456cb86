/**
 * The profile picture: the square image (avatar-image.ts made it) goes to the public `avatars`
 * bucket under the user's own folder, the profile points at it, and the previous picture is
 * removed. The bucket refuses anything but PNG, JPEG or WebP, and anything over 1 MB.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { settingsKeys } from './settings-keys';

const BUCKET = 'avatars';

/** The object name inside the bucket, from a public URL this screen stored. */
function objectName(publicUrl: string | null): string | null {
  if (!publicUrl) return null;
  const marker = `/object/public/${BUCKET}/`;
  const at = publicUrl.indexOf(marker);
  return at === -1 ? null : decodeURIComponent(publicUrl.slice(at + marker.length));
}

async function setAvatarUrl(userId: string, avatarUrl: string | null): Promise<void> {
  const client = await getSupabase();
  const { error } = await client
    .from('profiles')
    .update({ avatar_url: avatarUrl, updated_at: new Date().toISOString() })
    .eq('id', userId);
  if (error) throw new Error(`The profile was not updated: ${error.message}`);
}

async function removeObject(previousUrl: string | null): Promise<void> {
  const name = objectName(previousUrl);
  if (!name) return;
  const client = await getSupabase();
  // A leftover old picture is harmless; the new one is already in place.
  await client.storage.from(BUCKET).remove([name]);
}

export async function uploadAvatar({
  userId,
  image,
  previousUrl,
}: {
  userId: string;
  image: Blob;
  previousUrl: string | null;
}): Promise<string> {
  const client = await getSupabase();
  const extension =
    image.type === 'image/png' ? 'png' : image.type === 'image/jpeg' ? 'jpg' : 'webp';
  const name = `${userId}/avatar-${Date.now()}.${extension}`;
  const { error } = await client.storage
    .from(BUCKET)
    .upload(name, image, { contentType: image.type, upsert: false });
  if (error) throw new Error(`The picture was refused: ${error.message}`);
  const url = client.storage.from(BUCKET).getPublicUrl(name).data.publicUrl;
  await setAvatarUrl(userId, url);
  await removeObject(previousUrl);
  return url;
}

export async function removeAvatar({
  userId,
  previousUrl,
}: {
  userId: string;
  previousUrl: string | null;
}): Promise<void> {
  await setAvatarUrl(userId, null);
  await removeObject(previousUrl);
}

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: (_url, { userId }) =>
      queryClient.invalidateQueries({ queryKey: settingsKeys.profile(userId) }),
  });
}

export function useRemoveAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeAvatar,
    onSuccess: (_data, { userId }) =>
      queryClient.invalidateQueries({ queryKey: settingsKeys.profile(userId) }),
  });
}
