/**
 * The people screen's dialogs: add a person (invitation by mail, or a temporary password),
 * change a member's roles, and confirm a deactivation. Forms are checked with the shared zod
 * schemas first, then the server's field errors are shown beside the same fields.
 */
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import {
  newMemberSchema,
  setRolesSchema,
  type OrgMember,
  type RoleAssignment,
} from '@common/org-people';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import type { AdminBoard } from './api/get-boards-and-courses';
import { useAddMember, useSetMemberRoles } from './api/member-mutations';
import { OrgPeopleError } from './api/org-people-call';
import { FieldError, scopeName, type AdminWorkspace } from './admin-ui';
import { RolesEditor } from './roles-editor';

function issuesByPath(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) fields[issue.path.join('.') || 'form'] ??= issue.message;
  return fields;
}

/** A server refusal as field errors, or as a message for the whole form. */
function serverErrors(error: Error): { fields: Record<string, string>; form: string | null } {
  const fields = error instanceof OrgPeopleError ? error.fields : {};
  return { fields, form: Object.keys(fields).length > 0 ? null : error.message };
}

function TextField({
  label,
  error,
  hint,
  ...props
}: { label: string; error?: string; hint?: string } & React.ComponentProps<typeof Input>) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...props}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function AddPersonDialog({
  open,
  onOpenChange,
  workspace,
  boards,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspace: AdminWorkspace;
  boards: AdminBoard[];
}) {
  const add = useAddMember(workspace.organizationId);
  const [mode, setMode] = useState<'invite' | 'password'>('invite');
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [password, setPassword] = useState('');
  const firstRole: RoleAssignment = {
    role: 'learner',
    boardId: workspace.boardId ?? workspace.adminBoards?.[0]?.id ?? null,
  };
  const [roles, setRoles] = useState<RoleAssignment[]>([firstRole]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const modeId = useId();
  const edited = (field: string) => setErrors(({ [field]: _fixed, ...rest }) => rest);

  function reset() {
    setMode('invite');
    setEmail('');
    setFullName('');
    setPassword('');
    setRoles([firstRole]);
    setErrors({});
    setFormError(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = newMemberSchema.safeParse(
      mode === 'invite'
        ? { mode, email, fullName, roles }
        : { mode, email, fullName, roles, password },
    );
    if (!parsed.success) {
      setErrors(issuesByPath(parsed.error));
      setFormError(null);
      return;
    }
    setErrors({});
    setFormError(null);
    add.mutate(parsed.data, {
      onSuccess: ({ outcome, member }) => {
        const name = member.fullName ?? member.email;
        toast.success(
          outcome === 'invited'
            ? `Invitation sent to ${member.email}. ${name} chooses a password from the link in the mail.`
            : outcome === 'created'
              ? `${name} can sign in now with the temporary password. Pass it on privately.`
              : `${member.email} already had an account and is now a member of ${scopeName(workspace)}.`,
        );
        reset();
        onOpenChange(false);
      },
      onError: (error) => {
        const shown = serverErrors(error);
        setErrors(shown.fields);
        setFormError(shown.form);
      },
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) reset();
        onOpenChange(next);
      }}
    >
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Add a person to {scopeName(workspace)}</DialogTitle>
          <DialogDescription>
            Invite them by email, or create their account with a temporary password you pass on.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">How they start</legend>
            <label className="flex items-start gap-2 text-sm" htmlFor={`${modeId}-invite`}>
              <input
                id={`${modeId}-invite`}
                type="radio"
                name={modeId}
                className="mt-0.5 size-4 accent-primary"
                checked={mode === 'invite'}
                onChange={() => setMode('invite')}
              />
              <span>Send an invitation by email: they choose their own password.</span>
            </label>
            <label className="flex items-start gap-2 text-sm" htmlFor={`${modeId}-password`}>
              <input
                id={`${modeId}-password`}
                type="radio"
                name={modeId}
                className="mt-0.5 size-4 accent-primary"
                checked={mode === 'password'}
                onChange={() => setMode('password')}
              />
              <span>Create the account now with a temporary password.</span>
            </label>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Full name"
              autoComplete="off"
              value={fullName}
              maxLength={120}
              onChange={(event) => {
                setFullName(event.target.value);
                edited('fullName');
              }}
              error={errors.fullName}
            />
            <TextField
              label="Email"
              type="email"
              autoComplete="off"
              value={email}
              maxLength={254}
              onChange={(event) => {
                setEmail(event.target.value);
                edited('email');
              }}
              error={errors.email}
            />
          </div>
          {mode === 'password' && (
            <TextField
              label="Temporary password"
              type="text"
              autoComplete="new-password"
              value={password}
              maxLength={128}
              hint="At least 8 characters, not a common password. They can change it under Account."
              onChange={(event) => {
                setPassword(event.target.value);
                edited('password');
              }}
              error={errors.password}
            />
          )}
          <RolesEditor
            roles={roles}
            onChange={setRoles}
            boards={boards}
            errors={errors}
            isOwner={workspace.isOwner}
            boardOnly={workspace.boardAdminOnly ?? false}
          />
          {formError && <Notice tone="error">{formError}</Notice>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={add.isPending}>
              {add.isPending
                ? mode === 'invite'
                  ? 'Sending the invitation…'
                  : 'Creating the account…'
                : mode === 'invite'
                  ? 'Send invitation'
                  : 'Create account'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function ChangeRolesDialog({
  open,
  onOpenChange,
  member,
  workspace,
  boards,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  member: OrgMember;
  workspace: AdminWorkspace;
  boards: AdminBoard[];
}) {
  const save = useSetMemberRoles(workspace.organizationId);
  const [roles, setRoles] = useState<RoleAssignment[]>(
    member.roles.map(({ role, boardId }) => ({ role, boardId })),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const name = member.fullName ?? member.email;

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = setRolesSchema.safeParse({ roles });
    if (!parsed.success) {
      setErrors(issuesByPath(parsed.error));
      return;
    }
    setErrors({});
    setFormError(null);
    save.mutate(
      { userId: member.userId, roles: parsed.data.roles },
      {
        onSuccess: () => {
          toast.success(`${name}’s roles are changed; they apply from their next action.`);
          onOpenChange(false);
        },
        onError: (error) => {
          const shown = serverErrors(error);
          setErrors(shown.fields);
          setFormError(shown.form);
        },
      },
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Change the roles of {name}</DialogTitle>
          <DialogDescription>
            A role applies to the whole organization or to one board. The change takes effect at
            once.
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
          <RolesEditor
            roles={roles}
            onChange={setRoles}
            boards={boards}
            errors={errors}
            isOwner={workspace.isOwner}
            boardOnly={workspace.boardAdminOnly ?? false}
          />
          {formError && <Notice tone="error">{formError}</Notice>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save roles'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pending,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="button" variant="destructive" disabled={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
