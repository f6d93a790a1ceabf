/**
 * What both upload dialogs share: the chosen team and representative (from the teams of the
 * current department), the two selects that choose them, the run of one upload with its
 * progress panel, and the Cancel / Upload footer.
 */
import { useEffect, useRef, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { Spinner } from '../../../components/spinner';
import { useGetTeamMembersQuery, type TeamMember } from '../../../lib/api/gateway-api.generated';
import { selectCompany } from '../../../lib/auth/auth-slice';
import { useActivityToast } from '../activity-toast';
import { useDepartmentTeams } from '../../../lib/use-department-teams';
import { isAbortError } from './job-poller';
import type { UploadOutcome, UploadProgress } from './upload-flows';
import { UPLOAD_MESSAGES, type UploadToast } from './upload-rules';
import './upload.css';

const NO_MEMBERS: TeamMember[] = [];

/**
 * The team and representative chosen for an upload, with the company id, the teams of the
 * current department and the chosen team's representatives (an empty list when they cannot be
 * fetched). Choosing another team clears the representative. Nothing is fetched while `active`
 * is false.
 */
export function useUploadTargets(active: boolean) {
  const [teamId, setTeamId] = useState('');
  const [representative, setRepresentative] = useState('');
  const companyId = useAppSelector(selectCompany)?.id ?? null;
  const { teams } = useDepartmentTeams(!active);
  const members = useGetTeamMembersQuery({ id: teamId }, { skip: !active || !teamId });
  return {
    companyId,
    teams,
    members: members.isError ? NO_MEMBERS : (members.currentData ?? NO_MEMBERS),
    membersLoading: members.isFetching,
    teamId,
    representative,
    chooseTeam: (next: string) => {
      setTeamId(next);
      setRepresentative('');
    },
    chooseRepresentative: setRepresentative,
    clear: () => {
      setTeamId('');
      setRepresentative('');
    },
  };
}

type UploadTargets = ReturnType<typeof useUploadTargets>;

const memberLabel = (member: TeamMember) => {
  const name = `${member.first_name} ${member.last_name}`.trim();
  return name ? `${name} (${member.email})` : member.email;
};

type TargetFieldsProps = {
  idPrefix: string;
  targets: UploadTargets;
  /** The calls dialog shows the representative only once a team is chosen. */
  representativeOnlyWithTeam: boolean;
  disabled: boolean;
};

export function TeamAndRepresentativeFields({ idPrefix, targets, representativeOnlyWithTeam, disabled }: TargetFieldsProps) {
  const { teams, teamId, members, membersLoading, representative } = targets;
  const showRepresentative = !representativeOnlyWithTeam || teamId !== '';
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${idPrefix}-team`}>
          Team
        </label>
        <select id={`${idPrefix}-team`} className="field__input" value={teamId} disabled={disabled} onChange={(event) => targets.chooseTeam(event.target.value)}>
          <option value="">Select a team</option>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </div>
      {showRepresentative ? (
        <div className="field">
          <label className="field__label" htmlFor={`${idPrefix}-representative`}>
            Representative
          </label>
          <select
            id={`${idPrefix}-representative`}
            className="field__input"
            value={representative}
            disabled={disabled || teamId === ''}
            aria-busy={membersLoading || undefined}
            onChange={(event) => targets.chooseRepresentative(event.target.value)}
          >
            <option value="">{membersLoading ? 'Loading representatives...' : 'Select a representative'}</option>
            {members.map((member) => (
              <option key={member.email} value={member.email}>
                {memberLabel(member)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
    </>
  );
}

/**
 * One upload at a time and its progress (null while none runs). `run` starts an upload flow and
 * toasts its outcome; it resolves true when something was queued (the dialog then closes), and
 * false when nothing was, when the flow failed (`failureToast` says how) or was abandoned. Leaving
 * the page abandons the upload.
 */
export function useUploadRun() {
  const toast = useActivityToast();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const run = async (
    flow: (signal: AbortSignal, onProgress: (progress: UploadProgress) => void) => Promise<UploadOutcome>,
    failureToast: (error: unknown) => UploadToast,
  ): Promise<boolean> => {
    const controller = new AbortController();
    running.current = controller;
    try {
      const outcome = await flow(controller.signal, setProgress);
      if (outcome.toast) toast(outcome.toast);
      // Nothing queued (each failure already said so): the choice stays for another try.
      if (outcome.queued === 0) setProgress(null);
      return outcome.queued > 0;
    } catch (error) {
      if (isAbortError(error)) return false;
      toast(failureToast(error));
      setProgress(null);
      return false;
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  return {
    progress,
    uploading: progress !== null,
    /** Whether an upload is under way (it carries on while the dialog is closed). */
    isRunning: () => running.current !== null,
    run,
    clear: () => setProgress(null),
  };
}

/** 'Uploading n files...' or 'All files uploaded! ...', the file being sent, the elapsed time and the bars. */
export function UploadProgressPanel({ progress, showBars }: { progress: UploadProgress; showBars: boolean }) {
  return (
    <div className="upload-progress" role="status" aria-live="polite">
      <p className="upload-progress__headline">{progress.headline}</p>
      {progress.current ? <p className="upload-progress__line">{progress.current}</p> : null}
      {progress.elapsedSeconds !== null ? <p className="upload-progress__line">{UPLOAD_MESSAGES.elapsed(progress.elapsedSeconds)}</p> : null}
      {showBars ? (
        <ul className="upload-progress__files" aria-label="Upload progress">
          {progress.files.map((bar, index) => (
            <li key={`${index}-${bar.name}`} className="upload-progress__file">
              <span className="upload-progress__name">{bar.name}</span>
              <progress className="upload-progress__bar" max={100} value={bar.percent} aria-label={`${bar.name} upload progress`}>
                {bar.percent}%
              </progress>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Cancel and Upload, both disabled while an upload runs; Upload then reads 'Uploading...'. */
export function UploadFooter({ uploading, uploadDisabled = false, onCancel, onUpload }: { uploading: boolean; uploadDisabled?: boolean; onCancel: () => void; onUpload: () => void }) {
  return (
    <>
      <button type="button" className="button" onClick={onCancel} disabled={uploading}>
        Cancel
      </button>
      <button type="button" className="button button--primary" onClick={onUpload} disabled={uploading || uploadDisabled}>
        {uploading ? (
          <>
            <Spinner /> Uploading...
          </>
        ) : (
          'Upload'
        )}
      </button>
    </>
  );
}
