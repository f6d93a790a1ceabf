import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useUpdateProfileMutation } from '../../lib/api/gateway-api.generated';
import { profileUpdated, selectUser } from '../../lib/auth/auth-slice';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { reloadPage } from './reload-page';
import { profileChanges } from './settings-rules';

export const NO_PROFILE_CHANGES = 'No changes made to the profile.';
export const PROFILE_UPDATE_FAILED = 'Failed to update profile';

/** My Profile (spec §2, §4, §5, §8): first and last name editable, e-mail read-only. */
export function ProfilePanel() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const [firstName, setFirstName] = useState(user?.firstName ?? '');
  const [lastName, setLastName] = useState(user?.lastName ?? '');
  const [unchanged, setUnchanged] = useState(false);
  const [updateProfile, { isLoading }] = useUpdateProfileMutation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const changes = profileChanges(user, { firstName, lastName });
    setUnchanged(changes === null);
    if (!changes) return;
    try {
      const answer = await updateProfile({ body: changes }).unwrap();
      dispatch(profileUpdated(answer.user));
      reloadPage();
    } catch {
      window.alert(PROFILE_UPDATE_FAILED);
    }
  };

  return (
    <section className="settings-section" aria-labelledby="settings-profile-title">
      <h2 id="settings-profile-title">My Profile</h2>
      <form className="card settings-form" onSubmit={onSubmit}>
        <div className="settings-form__row">
          <TextField
            id="settings-first-name"
            label="First name"
            autoComplete="given-name"
            required
            maxLength={200}
            value={firstName}
            onChange={(event) => {
              setFirstName(event.target.value);
              setUnchanged(false);
            }}
          />
          <TextField
            id="settings-last-name"
            label="Last name"
            autoComplete="family-name"
            required
            maxLength={200}
            value={lastName}
            onChange={(event) => {
              setLastName(event.target.value);
              setUnchanged(false);
            }}
          />
        </div>
        <TextField
          id="settings-email"
          label="Email"
          type="email"
          value={user?.email ?? ''}
          readOnly
          hint="Your e-mail address identifies your account and cannot be changed here."
        />
        {unchanged ? (
          <p className="alert alert--warning" role="alert">
            {NO_PROFILE_CHANGES}
          </p>
        ) : null}
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={isLoading}>
            {isLoading ? (
              <>
                <Spinner /> Saving...
              </>
            ) : (
              'Save Changes'
            )}
          </button>
        </div>
      </form>
    </section>
  );
}
