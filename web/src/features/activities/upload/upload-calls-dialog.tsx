import { useId, useState } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch } from '../../../app/hooks';
import type { RootState } from '../../../app/store';
import { Modal } from '../../../components/modal';
import { storeCsrfTokens } from '../../../lib/api/api-slice';
import { gatewayApi, useTranscribeCallTextMutation } from '../../../lib/api/gateway-api.generated';
import { signedOut } from '../../../lib/auth/auth-slice';
import { useActivityToast } from '../activity-toast';
import { jobAnswerOf, textFailureReason } from './api-answers';
import { jobIdOf, uploadAudio, type UploadSession } from './audio-upload';
import { callJobCheck } from './job-poller';
import { runCallUpload } from './upload-flows';
import { TeamAndRepresentativeFields, UploadFooter, UploadProgressPanel, useUploadRun, useUploadTargets } from './upload-fields';
import { callUploadFailedToast, checkCallUpload, fileDate, repNameOf } from './upload-rules';

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
  const toast = useActivityToast();
  const upload = useUploadRun();
  const targets = useUploadTargets(open || upload.uploading);
  const { companyId, teamId, representative } = targets;
  const [audioFiles, setAudioFiles] = useState<File[]>([]);
  const [textFiles, setTextFiles] = useState<File[]>([]);
  // The file inputs are uncontrolled: a new key empties them.
  const [inputsKey, setInputsKey] = useState(0);
  const [transcribeText] = useTranscribeCallTextMutation();

  const reset = () => {
    targets.clear();
    setAudioFiles([]);
    setTextFiles([]);
    upload.clear();
    setInputsKey((key) => key + 1);
  };

  const session: UploadSession = {
    ...storeCsrfTokens(store, () => dispatch(gatewayApi.endpoints.getCsrfToken.initiate(undefined, { subscribe: false, forceRefetch: true }))),
    onSessionEnded: () => dispatch(signedOut()),
  };

  const onUpload = async () => {
    if (upload.uploading) return;
    const problem = checkCallUpload({ companyId, teamId, representative, audioFiles, textFiles });
    if (problem) {
      toast(problem);
      return;
    }
    const repName = repNameOf(targets.members.find((member) => member.email === representative));
    const queued = await upload.run(
      (signal, onProgress) =>
        runCallUpload(
          { audio: audioFiles, text: textFiles },
          {
            signal,
            onProgress,
            onUploadError: (message) => window.alert(message),
            uploadAudio: async (file, onFileProgress) => {
              const answer = await uploadAudio({ file, fields: { audioDate: fileDate(file), teamId, representative, repName }, onProgress: onFileProgress, signal }, session);
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
        ),
      () => callUploadFailedToast,
    );
    if (!queued) return;
    reset();
    onUploadsFinished(teamId);
    onClose();
  };

  return (
    <Modal
      open={open}
      title="Upload Audio/Text Files"
      onClose={onClose}
      onClosed={() => {
        if (!upload.isRunning()) reset();
      }}
      footer={<UploadFooter uploading={upload.uploading} onCancel={onClose} onUpload={() => void onUpload()} />}
    >
      <div className="upload-dialog">
        <TeamAndRepresentativeFields idPrefix={id} targets={targets} representativeOnlyWithTeam disabled={upload.uploading} />
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
            disabled={upload.uploading}
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
            disabled={upload.uploading}
            onChange={(event) => setTextFiles(Array.from(event.target.files ?? []))}
          />
        </div>
        {upload.progress ? <UploadProgressPanel progress={upload.progress} showBars /> : null}
      </div>
    </Modal>
  );
}
