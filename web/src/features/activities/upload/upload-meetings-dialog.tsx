import { useId, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { Modal } from '../../../components/modal';
import { gatewayApi, useUploadMeetingMutation } from '../../../lib/api/gateway-api.generated';
import { useActivityToast } from '../activity-toast';
import { jobAnswerOf, meetingSendAnswerOf } from './api-answers';
import { meetingJobCheck, reasonOf } from './job-poller';
import { runMeetingUpload } from './upload-flows';
import { TeamAndRepresentativeFields, UploadFooter, UploadProgressPanel, useUploadRun, useUploadTargets } from './upload-fields';
import { aboutFile, addMeetingFiles, checkMeetingUpload, formatFileSize, MEETING_ACCEPT, MEETING_NOTES_MAX, meetingUploadToast } from './upload-rules';

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
  const toast = useActivityToast();
  const upload = useUploadRun();
  const targets = useUploadTargets(open || upload.uploading);
  const { companyId, teamId, representative } = targets;
  const [files, setFiles] = useState<File[]>([]);
  const [notes, setNotes] = useState('');
  const [uploadMeeting] = useUploadMeetingMutation();

  const reset = () => {
    targets.clear();
    setFiles([]);
    setNotes('');
    upload.clear();
  };

  const onUpload = async () => {
    if (upload.uploading) return;
    const problem = checkMeetingUpload({ companyId, teamId, representative, files });
    if (problem) {
      toast(problem);
      return;
    }
    const note = notes.trim();
    const queued = await upload.run(
      (signal, onProgress) =>
        runMeetingUpload(files, {
          signal,
          onProgress,
          send: async (file, content) => {
            const body = { meetingName: file.name, content, teamId, repEmail: representative, ...(note ? { notes: note } : {}) };
            return meetingSendAnswerOf(await uploadMeeting({ body }));
          },
          checkJob: async (jobId) => {
            const result = await dispatch(gatewayApi.endpoints.getMeetingUploadStatus.initiate({ jobId }, { subscribe: false, forceRefetch: true }));
            return meetingJobCheck(jobAnswerOf(result));
          },
        }),
      (error) => meetingUploadToast(files.length, files.map((file) => aboutFile(file.name, reasonOf(error)))),
    );
    if (!queued) return;
    reset();
    onUploadsFinished(teamId);
    onClose();
  };

  return (
    <Modal
      open={open}
      title="Upload Meetings"
      onClose={onClose}
      onClosed={() => {
        if (!upload.isRunning()) reset();
      }}
      footer={<UploadFooter uploading={upload.uploading} uploadDisabled={files.length === 0} onCancel={onClose} onUpload={() => void onUpload()} />}
    >
      <div className="upload-dialog">
        <TeamAndRepresentativeFields idPrefix={id} targets={targets} representativeOnlyWithTeam={false} disabled={upload.uploading} />
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
            disabled={upload.uploading}
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
                  disabled={upload.uploading}
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
            disabled={upload.uploading}
            onChange={(event) => setNotes(event.target.value)}
          />
        </div>
        {upload.progress ? <UploadProgressPanel progress={upload.progress} showBars={false} /> : null}
      </div>
    </Modal>
  );
}
