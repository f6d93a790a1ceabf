import { useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { gatewayApi, useRemoveMemberMutation, useUpdateMemberRoleMutation, type CompanyMember } from '../../lib/api/gateway-api.generated';
import { profileUpdated, selectIsAdmin, selectUser, signedOut } from '../../lib/auth/auth-slice';
import { toastShown } from '../../lib/ui/toast-slice';
import { Modal } from '../../components/modal';
import { Spinner } from '../../components/spinner';
import { MEMBER_MESSAGES, ROLE_OPTIONS, canRemoveMember, canUpdateRole, isRole, memberErrorText, roleLabel } from './settings-rules';

type MemberEditDialogProps = {
  member: CompanyMember;
  open: boolean;
  /** The member is the signed-in user (their own role or membership changes). */
  isSelf: boolean;
  onClose: () => void;
  onClosed: () => void;
};

// The generated endpoints paste the e-mail into the path as it is; '+', '#', '/' or '?' in an
// address would change the URL, so it is encoded here.
const memberPath = (email: string) => encodeURIComponent(email);

/**
 * Spec §4: choose a role ('Update Role' only once it differs from the current one) or remove the
 * member, which asks for a second, explicit confirmation inside the dialog.
 */
export function MemberEditDialog({ member, open, isSelf, onClose, onClosed }: MemberEditDialogProps) {
  const dispatch = useAppDispatch();
  const isAdmin = useAppSelector(selectIsAdmin);
  const user = useAppSelector(selectUser);
  const [role, setRole] = useState<string>(member.role);
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const [updateRole, updating] = useUpdateMemberRoleMutation();
  const [removeMember, removing] = useRemoveMemberMutation();
  const busy = updating.isLoading || removing.isLoading;
  const name = `${member.first_name} ${member.last_name}`.trim() || member.email;

  const onUpdate = async () => {
    if (!isAdmin || !canUpdateRole(member, role) || !isRole(role)) return;
    try {
      const answer = await updateRole({
        email: memberPath(member.email),
        body: { role },
      }).unwrap();
      dispatch(toastShown({ kind: 'success', text: MEMBER_MESSAGES.roleUpdated }));
      // Demoting oneself: the top bar and these tabs should know at once, not after a reload.
      if (isSelf && user) dispatch(profileUpdated({ ...user, role: answer.member.role }));
      onClose();
    } catch (error) {
      dispatch(toastShown({ kind: 'error', text: memberErrorText(error, 'update') }));
    }
  };

  const onRemove = async () => {
    if (!isAdmin || !canRemoveMember(member)) return;
    try {
      await removeMember({ email: memberPath(member.email) }).unwrap();
      dispatch(toastShown({ kind: 'success', text: MEMBER_MESSAGES.removed }));
      onClose();
      if (isSelf) {
        // The gateway ended this session along with the membership.
        dispatch(signedOut());
        dispatch(gatewayApi.util.resetApiState());
      }
    } catch (error) {
      dispatch(toastShown({ kind: 'error', text: memberErrorText(error, 'remove') }));
    }
  };

  const footer = confirmingRemoval ? (
    <div className="button-row">
      <button type="button" className="button" onClick={() => setConfirmingRemoval(false)} disabled={busy}>
        Cancel
      </button>
      <button type="button" className="button button--danger" onClick={() => void onRemove()} disabled={busy || !isAdmin}>
        {removing.isLoading ? (
          <>
            <Spinner /> Removing...
          </>
        ) : (
          'Remove Member'
        )}
      </button>
    </div>
  ) : (
    <div className="settings-dialog__actions">
      <button type="button" className="button button--danger" onClick={() => setConfirmingRemoval(true)} disabled={busy || !isAdmin}>
        Remove
      </button>
      <div className="button-row">
        <button type="button" className="button" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void onUpdate()}
          disabled={busy || !isAdmin || !canUpdateRole(member, role)}
        >
          {updating.isLoading ? (
            <>
              <Spinner /> Updating...
            </>
          ) : (
            'Update Role'
          )}
        </button>
      </div>
    </div>
  );

  return (
    <Modal open={open} title="Edit Member" onClose={onClose} onClosed={onClosed} footer={footer}>
      <p className="settings-dialog__member">
        <strong>{name}</strong>
        <br />
        <span className="settings-muted">{member.email}</span>
      </p>
      {confirmingRemoval ? (
        <div className="alert" role="alert">
          <p>
            Remove {name} ({member.email}) from the company? They will lose access to Parlance immediately. This cannot be undone.
          </p>
          {isSelf ? <p>You are removing yourself: you will be signed out.</p> : null}
        </div>
      ) : (
        <fieldset className="settings-dialog__roles">
          <legend className="field__label">Role (currently {roleLabel(member.role)})</legend>
          {ROLE_OPTIONS.map((option) => (
            <label key={option.value} className="settings-dialog__role">
              <input
                type="radio"
                name="settings-member-role"
                value={option.value}
                checked={role === option.value}
                onChange={() => setRole(option.value)}
              />
              <span>
                <strong>{option.label}</strong>
                <span className="settings-muted"> – {option.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
    </Modal>
  );
}
