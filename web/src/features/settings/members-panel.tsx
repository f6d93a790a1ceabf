import { useEffect, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useInviteMemberMutation, useListMembersQuery, type CompanyMember } from '../../lib/api/gateway-api.generated';
import { selectIsAdmin, selectUser } from '../../lib/auth/auth-slice';
import { toastShown } from '../../lib/ui/toast-slice';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { MemberEditDialog } from './member-edit-dialog';
import { MEMBER_MESSAGES, ROLE_OPTIONS, isRole, isValidEmail, roleBadgeClass, roleLabel, type Role } from './settings-rules';

const memberName = (member: CompanyMember) => `${member.first_name} ${member.last_name}`.trim() || member.email;
const sameEmail = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/** Members (spec §2, §5, §6, §8): the company's members, the invite form and the edit dialog. */
export function MembersPanel() {
  const dispatch = useAppDispatch();
  const isAdmin = useAppSelector(selectIsAdmin);
  const user = useAppSelector(selectUser);
  const { data: members, isLoading, isError, refetch } = useListMembersQuery();
  // The member whose dialog is open (kept while it animates closed), and whether it is open.
  const [editing, setEditing] = useState<CompanyMember | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);

  useEffect(() => {
    if (isError) dispatch(toastShown({ kind: 'error', text: MEMBER_MESSAGES.loadFailed }));
  }, [isError, dispatch]);

  let list;
  if (isLoading) {
    list = (
      <p>
        <Spinner label="Loading members" />
      </p>
    );
  } else if (isError || !members) {
    list = (
      <p className="settings-muted">
        The member list could not be loaded.{' '}
        <button type="button" className="button button--small" onClick={() => void refetch()}>
          Try again
        </button>
      </p>
    );
  } else {
    list = (
      <ul className="settings-members" aria-label="Company members">
        {members.map((member) => (
          <li key={member.email} className="settings-members__item">
            <div className="settings-members__who">
              <span className="settings-members__name">
                {memberName(member)}
                {sameEmail(user?.email, member.email) ? <span className="settings-muted"> (you)</span> : null}
              </span>
              <span className="settings-members__email">{member.email}</span>
            </div>
            <div className="settings-members__actions">
              <span className={roleBadgeClass(member.role)}>{roleLabel(member.role)}</span>
              <button
                type="button"
                className="button button--small"
                aria-label={`Edit ${memberName(member)}`}
                disabled={!isAdmin}
                onClick={() => {
                  setEditing(member);
                  setDialogOpen(true);
                }}
              >
                Edit
              </button>
            </div>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="settings-section" aria-labelledby="settings-members-title">
      <h2 id="settings-members-title">Members</h2>
      {isAdmin ? null : (
        <p className="alert alert--warning" role="note">
          {MEMBER_MESSAGES.adminOnly}
        </p>
      )}
      <InviteForm allowed={isAdmin} />
      <div className="card">
        <h3>Company members</h3>
        {list}
      </div>
      {editing ? (
        <MemberEditDialog
          key={editing.email}
          member={editing}
          open={dialogOpen}
          isSelf={sameEmail(user?.email, editing.email)}
          onClose={() => setDialogOpen(false)}
          onClosed={() => setEditing(null)}
        />
      ) : null}
    </section>
  );
}

function InviteForm({ allowed }: { allowed: boolean }) {
  const dispatch = useAppDispatch();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('manager');
  const [invite, { isLoading }] = useInviteMemberMutation();
  const address = email.trim();
  const valid = isValidEmail(address);
  const showError = address !== '' && !valid;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!allowed || !valid || isLoading) return;
    try {
      await invite({ body: { email: address, role } }).unwrap();
      dispatch(toastShown({ kind: 'success', text: MEMBER_MESSAGES.invited(address) }));
      setEmail('');
      setRole('manager');
    } catch {
      // Spec §8 gives one sentence for every failed invitation, whatever the server said.
      dispatch(toastShown({ kind: 'error', text: MEMBER_MESSAGES.inviteFailed }));
    }
  };

  return (
    <form className="card settings-invite" onSubmit={onSubmit} noValidate aria-labelledby="settings-invite-title">
      <h3 id="settings-invite-title">Invite a member</h3>
      <fieldset className="settings-invite__fields" disabled={!allowed}>
        <TextField
          id="settings-invite-email"
          fieldClassName="settings-invite__email"
          label="Email address"
          type="email"
          autoComplete="off"
          placeholder="name@company.com"
          value={email}
          error={showError ? MEMBER_MESSAGES.invalidEmail : undefined}
          onChange={(event) => setEmail(event.target.value)}
        />
        <div className="field settings-invite__role">
          <label className="field__label" htmlFor="settings-invite-role">
            Role
          </label>
          <select
            id="settings-invite-role"
            className="field__input"
            value={role}
            onChange={(event) => {
              if (isRole(event.target.value)) setRole(event.target.value);
            }}
          >
            {ROLE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label} – {option.description}
              </option>
            ))}
          </select>
        </div>
        <div className="settings-invite__submit">
          <button type="submit" className="button button--primary" disabled={!allowed || !valid || isLoading}>
            {isLoading ? (
              <>
                <Spinner /> Sending...
              </>
            ) : (
              'Send Invitation'
            )}
          </button>
        </div>
      </fieldset>
    </form>
  );
}
