import { useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useUpdateProfileMutation } from '../../lib/api/gateway-api.generated';
import { profileUpdated, selectUser } from '../../lib/auth/auth-slice';
import { Spinner } from '../../components/spinner';
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
          <div className="field">
            <label className="field__label" htmlFor="settings-first-name">
              First name
            </label>
            <input
              id="settings-first-name"
              className="field__input"
              autoComplete="given-name"
              required
              maxLength={200}
              value={firstName}
              onChange={(event) => {
                setFirstName(event.target.value);
                setUnchanged(false);
              }}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor="settings-last-name">
              Last name
            </label>
            <input
              id="settings-last-name"
              className="field__input"
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
        </div>
        <div className="field">
          <label className="field__label" htmlFor="settings-email">
            Email
          </label>
          <input
            id="settings-email"
            className="field__input"
            type="email"
            value={user?.email ?? ''}
            readOnly
            aria-describedby="settings-email-hint"
          />
          <span id="settings-email-hint" className="field__hint">
            Your e-mail address identifies your account and cannot be changed here.
          </span>
        </div>
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
