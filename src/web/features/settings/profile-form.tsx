/** Names and the profile picture (cropped and resized here, stored in the avatars bucket). */
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ImageUp, Trash2, UserRound } from 'lucide-react';
import { toast } from 'sonner';
import { LoadError, LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { AvatarImageError, squareAvatar } from './avatar-image';
import { useProfileDetails, type ProfileDetails } from './api/get-profile-details';
import { useRemoveAvatar, useUploadAvatar } from './api/update-avatar';
import { profileSchema, useUpdateProfile } from './api/update-profile';
import { Field } from '@/components/ui/field';

export function ProfileForm({ userId }: { userId: string }) {
  const profile = useProfileDetails(userId);
  if (profile.isPending) return <LoadingBlock label="Loading your profile…" />;
  if (profile.isError) {
    return (
      <LoadError
        message={`Could not load your profile: ${profile.error.message}`}
        onRetry={() => void profile.refetch()}
      />
    );
  }
  return (
    <div className="grid gap-6 sm:grid-cols-[auto_1fr]">
      <AvatarPicker userId={userId} avatarUrl={profile.data.avatarUrl} />
      <NamesForm
        key={`${profile.data.displayName}|${profile.data.fullName}`}
        userId={userId}
        profile={profile.data}
      />
    </div>
  );
}

function NamesForm({ userId, profile }: { userId: string; profile: ProfileDetails }) {
  const [displayName, setDisplayName] = useState(profile.displayName);
  const [fullName, setFullName] = useState(profile.fullName);
  const [errors, setErrors] = useState<{ displayName?: string; fullName?: string }>({});
  const update = useUpdateProfile();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = profileSchema.safeParse({ displayName, fullName });
    if (!parsed.success) {
      const found: typeof errors = {};
      for (const issue of parsed.error.issues) {
        found[issue.path[0] as keyof typeof errors] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    update.mutate(
      { userId, ...parsed.data },
      {
        onSuccess: () => toast.success('Profile saved.'),
        onError: (error) => toast.error(`Your profile was not saved: ${error.message}`),
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="grid max-w-lg gap-4" aria-label="Names">
      <Field
        label="Display name"
        autoComplete="nickname"
        value={displayName}
        onChange={(event) => setDisplayName(event.target.value)}
        error={errors.displayName}
        hint="A short name for discussions and, if you join one, leaderboards."
      />
      <Field
        label="Full name"
        autoComplete="name"
        value={fullName}
        onChange={(event) => setFullName(event.target.value)}
        error={errors.fullName}
        hint="Your instructors see it in progress tables and grading."
      />
      {update.isError && (
        <Notice tone="error">Your profile was not saved: {update.error.message}</Notice>
      )}
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save names'}
        </Button>
      </div>
    </form>
  );
}

function AvatarPicker({ userId, avatarUrl }: { userId: string; avatarUrl: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string>();
  const [preparing, setPreparing] = useState(false);
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();
  const busy = preparing || upload.isPending || remove.isPending;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setProblem(undefined);
    setPreparing(true);
    try {
      const image = await squareAvatar(file);
      await upload.mutateAsync({ userId, image, previousUrl: avatarUrl });
      toast.success('Profile picture updated.');
    } catch (error) {
      const message = error instanceof AvatarImageError ? error.message : (error as Error).message;
      setProblem(message);
    } finally {
      setPreparing(false);
    }
  }

  function clear() {
    setProblem(undefined);
    remove.mutate(
      { userId, previousUrl: avatarUrl },
      {
        onSuccess: () => toast.success('Profile picture removed.'),
        onError: (error) => setProblem(`The picture was not removed: ${error.message}`),
      },
    );
  }

  return (
    <div className="grid content-start justify-items-start gap-3">
      <div className="grid size-28 place-items-center overflow-hidden rounded-full border bg-muted">
        {avatarUrl ? (
          <img src={avatarUrl} alt="Your profile picture" className="size-full object-cover" />
        ) : (
          <UserRound aria-label="No profile picture" className="size-12 text-muted-foreground" />
        )}
      </div>
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/webp"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="avatar-file"
        onChange={(event) => void choose(event)}
      />
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => input.current?.click()}
        >
          <ImageUp aria-hidden="true" />
          {busy ? 'Uploading…' : avatarUrl ? 'Change picture' : 'Upload picture'}
        </Button>
        {avatarUrl && (
          <Button type="button" size="sm" variant="ghost" disabled={busy} onClick={clear}>
            <Trash2 aria-hidden="true" />
            Remove
          </Button>
        )}
      </div>
      <p className="max-w-56 text-xs text-muted-foreground">
        PNG, JPEG or WebP. Cropped to a square and resized to 512 px before it is uploaded.
      </p>
      {problem && (
        <Notice tone="error" className="max-w-64">
          {problem}
        </Notice>
      )}
    </div>
  );
}
