import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch } from '../../../app/hooks';
import type { RootState } from '../../../app/store';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { csrfTokenReceived, selectCsrfToken } from '../../../lib/api/csrf-slice';
import { gatewayApi, useTranscribeCallTextMutation } from '../../../lib/api/gateway-api.generated';
import { signedOut } from '../../../lib/auth/auth-slice';
import { toastShown } from '../../../lib/ui/toast-slice';
import { jobAnswerOf, textFailureReason } from './api-answers';
import { jobIdOf, uploadAudio, type CsrfTokens } from './audio-upload';
import { callJobCheck, isAbortError } from './job-poller';
import { runCallUpload, type UploadProgress } from './upload-flows';
import { TeamAndRepresentativeFields, UploadProgressPanel, useUploadTargets } from './upload-fields';
import { callUploadFailedToast, checkCallUpload, fileDate, repNameOf, UPLOAD_TOAST_MS } from './upload-rules';

export type UploadCallsDialogProps = {
  open: boolean;
  onClose: () => void;
  /** An upload ended with at least one file queued; the page refreshes its list for this team. */
  onUploadsFinished: (teamId: string) => void;
};

/**
 * 'Upload Audio/Text Files' (spec part 2 §2.3, §4, §5): a team, then one of its representatives,
 * audio and text files. Upload checks the choice, sends the files one by one, waits for every
 * queued job and ends with a toast; then the dialog closes and the page hears which team it was.
 *
 * While files are sent or processed, Cancel and Upload are disabled; closing the dialog (×, Escape)
 * only hides it, and the upload carries on to its toast. Leaving the page abandons it.
 */
export function UploadCallsDialog({ open, onClose, onUploadsFinished }: UploadCallsDialogProps) {
  const id = useId();
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const [teamId, setTeamId] = useState('');
  const [representative, setRepresentative] = useState('');
  const [audioFiles, setAudioFiles] = useState<File[]>([]);
  const [textFiles, setTextFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  // The file inputs are uncontrolled: a new key empties them.
  const [inputsKey, setInputsKey] = useState(0);
  const uploading = progress !== null;
  const { companyId, teams, members, membersLoading } = useUploadTargets(open || uploading, teamId);
  const [transcribeText] = useTranscribeCallTextMutation();
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const reset = () => {
    setTeamId('');
    setRepresentative('');
    setAudioFiles([]);
    setTextFiles([]);
    setProgress(null);
    setInputsKey((key) => key + 1);
  };

  const toast = (shown: { kind: 'success' | 'warning' | 'error'; text: string }) => dispatch(toastShown({ ...shown, durationMs: UPLOAD_TOAST_MS }));

  const tokens: CsrfTokens = {
    current: () => selectCsrfToken(store.getState()),
    refresh: async () => {
      const answer = await dispatch(gatewayApi.endpoints.getCsrfToken.initiate(undefined, { subscribe: false, forceRefetch: true }));
      const token = answer.data?.csrfToken;
      if (!token) return null;
      dispatch(csrfTokenReceived(token));
      return token;
    },
    onSessionEnded: () => dispatch(signedOut()),
  };

  const onUpload = async () => {
    if (uploading) return;
    const problem = checkCallUpload({ companyId, teamId, representative, audioFiles, textFiles });
    if (problem) {
      toast(problem);
      return;
    }
    const repName = repNameOf(members.find((member) => member.email === representative));
    const controller = new AbortController();
    running.current = controller;
    const { signal } = controller;
    try {
      const outcome = await runCallUpload(
        { audio: audioFiles, text: textFiles },
        {
          signal,
          onProgress: setProgress,
          onUploadError: (message) => window.alert(message),
          uploadAudio: async (file, onProgress) => {
            const answer = await uploadAudio({ file, fields: { audioDate: fileDate(file), teamId, representative, repName }, onProgress, signal }, tokens);
            return { status: answer.status, jobId: jobIdOf(answer) };
          },
          uploadText: async (file, content) => {
            const result = await transcribeText({ body: { fileName: file.name, content, date: fileDate(file), teamId, representative, repName } });
            return result.data ? { ok: true, jobId: result.data.jobId } : { ok: false, reason: textFailureReason(result.error) };
          },
          checkJob: async (jobId) => {
            const result = await dispatch(gatewayApi.endpoints.getCallJob.initiate({ id: jobId }, { subscribe: false, forceRefetch: true }));
            return callJobCheck(jobId, jobAnswerOf(result));
          },
        },
      );
      if (outcome.toast) toast(outcome.toast);
      if (outcome.queued === 0) {
        // Every file failed to upload, each with its alert: the choice stays for another try.
        setProgress(null);
        return;
      }
      reset();
      onUploadsFinished(teamId);
      onClose();
    } catch (error) {
      if (isAbortError(error)) return;
      toast(callUploadFailedToast);
      setProgress(null);
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  const footer = (
    <>
      <button type="button" className="button" onClick={onClose} disabled={uploading}>
        Cancel
      </button>
      <button type="button" className="button button--primary" onClick={() => void onUpload()} disabled={uploading}>
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

  return (
    <Modal
      open={open}
      title="Upload Audio/Text Files"
      onClose={onClose}
      onClosed={() => {
        if (!running.current) reset();
      }}
      footer={footer}
    >
      <div className="upload-dialog">
        <TeamAndRepresentativeFields
          idPrefix={id}
          teams={teams}
          teamId={teamId}
          onTeamChange={(next) => {
            setTeamId(next);
            setRepresentative('');
          }}
          members={members}
          membersLoading={membersLoading}
          representative={representative}
          onRepresentativeChange={setRepresentative}
          representativeOnlyWithTeam
          disabled={uploading}
        />
        <div className="field">
          <label className="field__label" htmlFor={`${id}-audio`}>
            Audio files
          </label>
          <input
            key={`audio-${inputsKey}`}
            id={`${id}-audio`}
            className="upload-dialog__file-input"
            type="file"
            accept="audio/*"
            multiple
            disabled={uploading}
            onChange={(event) => setAudioFiles(Array.from(event.target.files ?? []))}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-text`}>
            Text files
          </label>
          <input
            key={`text-${inputsKey}`}
            id={`${id}-text`}
            className="upload-dialog__file-input"
            type="file"
            accept=".txt"
            multiple
            disabled={uploading}
            onChange={(event) => setTextFiles(Array.from(event.target.files ?? []))}
          />
        </div>
        {progress ? <UploadProgressPanel progress={progress} showBars /> : null}
      </div>
    </Modal>
  );
}
