import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startAuth } from '../auth-store';
import { authKeys } from './auth-keys';
import type { Profile } from './get-profile';

export interface UpdateProfileInput extends Profile {
  userId: string;
}

/** Saves the names; an empty name is stored as no name. */
export async function updateProfile({
  userId,
  displayName,
  fullName,
}: UpdateProfileInput): Promise<Profile> {
  const client = await startAuth();
  const saved = { displayName: displayName.trim(), fullName: fullName.trim() };
  const { error } = await client
    .from('profiles')
    .update({
      display_name: saved.displayName || null,
      full_name: saved.fullName || null,
      updated_at: new Date().toISOString(),
    })
    .eq('id', userId);
  if (error) throw new Error(error.message);
  return saved;
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (saved, { userId }) => {
      queryClient.setQueryData(authKeys.profile(userId), saved);
    },
  });
}
