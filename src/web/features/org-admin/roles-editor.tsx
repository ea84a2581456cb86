/**
 * The roles of one person in the organization, as rows of role and board: add, change or
 * remove a row. Used by the "Add a person" and "Change roles" dialogs; the schemas in
 * common/org-people decide what is valid and the server decides what this admin may grant.
 */
import { useId } from 'react';
import { Plus, Trash2 } from 'lucide-react';
import {
  memberRoleLabels,
  memberRoles,
  type MemberRole,
  type RoleAssignment,
} from '@common/org-people';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import type { AdminBoard } from './api/get-boards-and-courses';
import { FieldError, NativeSelect } from './admin-ui';

const NO_BOARD = '';

export function RolesEditor({
  roles,
  onChange,
  boards,
  errors,
  isOwner,
  boardOnly = false,
}: {
  roles: RoleAssignment[];
  onChange: (roles: RoleAssignment[]) => void;
  boards: AdminBoard[];
  /** Field errors by path: `roles`, `roles.0.role`, … */
  errors: Record<string, string>;
  /** Only the owner may name org admins (decision 0130); others do not see the choice. */
  isOwner: boolean;
  /** A board admin grants learner and instructor roles on their boards only (decision 0142). */
  boardOnly?: boolean;
}) {
  const id = useId();
  const offered = memberRoles.filter((role) =>
    boardOnly ? role === 'learner' || role === 'instructor' : isOwner || role !== 'org_admin',
  );
  const update = (index: number, change: Partial<RoleAssignment>) =>
    onChange(roles.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <fieldset className="grid gap-3">
      <legend className="mb-1 text-sm font-medium">Roles</legend>
      {roles.map((row, index) => {
        const roleId = `${id}-role-${index}`;
        const boardId = `${id}-board-${index}`;
        const rowError = errors[`roles.${index}.role`] ?? errors[`roles.${index}.boardId`];
        return (
          <div
            key={index}
            className="grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
          >
            <div className="grid gap-1.5">
              <Label htmlFor={roleId}>Role {roles.length > 1 ? index + 1 : ''}</Label>
              <NativeSelect
                id={roleId}
                value={row.role}
                onChange={(event) => update(index, { role: event.target.value as MemberRole })}
              >
                {(offered.includes(row.role) ? offered : [...offered, row.role]).map((role) => (
                  <option key={role} value={role}>
                    {memberRoleLabels[role]}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={boardId}>Board</Label>
              <NativeSelect
                id={boardId}
                value={row.boardId ?? NO_BOARD}
                onChange={(event) =>
                  update(index, {
                    boardId: event.target.value === NO_BOARD ? null : event.target.value,
                  })
                }
              >
                {!boardOnly && <option value={NO_BOARD}>Whole organization (no board)</option>}
                {boards.map((board) => (
                  <option key={board.id} value={board.id}>
                    {board.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={roles.length === 1}
              onClick={() => onChange(roles.filter((_, i) => i !== index))}
              aria-label={`Remove role ${index + 1}`}
            >
              <Trash2 aria-hidden="true" />
              Remove
            </Button>
            {rowError && (
              <div className="sm:col-span-3">
                <FieldError id={`${roleId}-error`} message={rowError} />
              </div>
            )}
          </div>
        );
      })}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={roles.length >= 20}
          onClick={() =>
            onChange([
              ...roles,
              { role: 'learner', boardId: boardOnly ? (boards[0]?.id ?? null) : null },
            ])
          }
        >
          <Plus aria-hidden="true" />
          Add a role
        </Button>
      </div>
      <FieldError id={`${id}-roles-error`} message={errors.roles} />
    </fieldset>
  );
}
