import { useEffect, useId, useRef, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Modal } from '../../../components/modal';
import { Spinner } from '../../../components/spinner';
import { gatewayApi, useUploadMeetingMutation } from '../../../lib/api/gateway-api.generated';
import { toastShown } from '../../../lib/ui/toast-slice';
import { jobAnswerOf, meetingSendAnswerOf } from './api-answers';
import { isAbortError, meetingJobCheck, reasonOf } from './job-poller';
import { runMeetingUpload, type UploadProgress } from './upload-flows';
import { TeamAndRepresentativeFields, UploadProgressPanel, useUploadTargets } from './upload-fields';
import {
  aboutFile,
  addMeetingFiles,
  checkMeetingUpload,
  formatFileSize,
  MEETING_ACCEPT,
  MEETING_NOTES_MAX,
  meetingUploadToast,
  UPLOAD_TOAST_MS,
} from './upload-rules';

export type UploadMeetingsDialogProps = {
  open: boolean;
  onClose: () => void;
  /** An upload ended with at least one meeting accepted; the page refreshes its list for this team. */
  onUploadsFinished: (teamId: string) => void;
};

/**
 * The Upload Meetings dialog (spec part 2 §2.4, §4, §5): a team, a representative, transcript
 * files (.txt, .md, .text; each listed with Remove) and notes. Upload checks the choice (problems
 * are warnings), reads and sends each file, waits for every accepted job and ends with a toast;
 * then the dialog closes and the page hears which team it was.
 *
 * The file name is sent as meetingName with its extension: the gateway takes it as the file name,
 * checks the extension and makes the title from the name without it.
 */
export function UploadMeetingsDialog({ open, onClose, onUploadsFinished }: UploadMeetingsDialogProps) {
  const id = useId();
  const dispatch = useAppDispatch();
  const [teamId, setTeamId] = useState('');
  const [representative, setRepresentative] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [notes, setNotes] = useState('');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const uploading = progress !== null;
  const { companyId, teams, members, membersLoading } = useUploadTargets(open || uploading, teamId);
  const [uploadMeeting] = useUploadMeetingMutation();
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  const reset = () => {
    setTeamId('');
    setRepresentative('');
    setFiles([]);
    setNotes('');
    setProgress(null);
  };

  const toast = (shown: { kind: 'success' | 'warning' | 'error'; text: string }) => dispatch(toastShown({ ...shown, durationMs: UPLOAD_TOAST_MS }));

  const onUpload = async () => {
    if (uploading) return;
    const problem = checkMeetingUpload({ companyId, teamId, representative, files });
    if (problem) {
      toast(problem);
      return;
    }
    const note = notes.trim();
    const controller = new AbortController();
    running.current = controller;
    try {
      const outcome = await runMeetingUpload(files, {
        signal: controller.signal,
        onProgress: setProgress,
        send: async (file, content) => {
          const body = { meetingName: file.name, content, teamId, repEmail: representative, ...(note ? { notes: note } : {}) };
          return meetingSendAnswerOf(await uploadMeeting({ body }));
        },
        checkJob: async (jobId) => {
          const result = await dispatch(gatewayApi.endpoints.getMeetingUploadStatus.initiate({ jobId }, { subscribe: false, forceRefetch: true }));
          return meetingJobCheck(jobAnswerOf(result));
        },
      });
      if (outcome.toast) toast(outcome.toast);
      if (outcome.queued === 0) {
        // No meeting was accepted: the choice stays for another try.
        setProgress(null);
        return;
      }
      reset();
      onUploadsFinished(teamId);
      onClose();
    } catch (error) {
      if (isAbortError(error)) return;
      toast(meetingUploadToast(files.length, files.map((file) => aboutFile(file.name, reasonOf(error)))));
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
      <button type="button" className="button button--primary" onClick={() => void onUpload()} disabled={uploading || files.length === 0}>
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
      title="Upload Meetings"
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
          representativeOnlyWithTeam={false}
          disabled={uploading}
        />
        <div className="field">
          <label className="field__label" htmlFor={`${id}-files`}>
            Transcript files
          </label>
          <input
            id={`${id}-files`}
            className="upload-dialog__file-input"
            type="file"
            accept={MEETING_ACCEPT}
            multiple
            disabled={uploading}
            aria-describedby={`${id}-files-hint`}
            onChange={(event) => {
              const picked = Array.from(event.target.files ?? []);
              setFiles((current) => addMeetingFiles(current, picked));
              // The same file can be picked again after it was removed.
              event.target.value = '';
            }}
          />
          <span id={`${id}-files-hint`} className="field__hint">
            .txt, .md or .text, at most 100KB each
          </span>
        </div>
        {files.length > 0 ? (
          <ul className="upload-dialog__files" aria-label="Selected files">
            {files.map((file, index) => (
              <li key={`${file.name}-${file.size}-${file.lastModified}`} className="upload-dialog__file">
                <span className="upload-dialog__file-name">{file.name}</span>
                <span className="upload-dialog__file-size">{formatFileSize(file.size)}</span>
                <button
                  type="button"
                  className="button button--small"
                  aria-label={`Remove ${file.name}`}
                  disabled={uploading}
                  onClick={() => setFiles((current) => current.filter((_, at) => at !== index))}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="field">
          <label className="field__label" htmlFor={`${id}-notes`}>
            Notes
          </label>
          <textarea
            id={`${id}-notes`}
            className="field__input"
            rows={3}
            maxLength={MEETING_NOTES_MAX}
            value={notes}
            disabled={uploading}
            onChange={(event) => setNotes(event.target.value)}
          />
        </div>
        {progress ? <UploadProgressPanel progress={progress} showBars={false} /> : null}
      </div>
    </Modal>
  );
}
