/**
 * Payloads of the upload, job and delete calls of calls and meetings (spec part 2 §3 and §7).
 * Request fields are optional and loosely typed on purpose: ingest checks an upload and answers
 * with the spec's own sentences ('Please select a team.'), which a schema error could not.
 */
import Type from 'typebox';

const Text = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));

export const UploadResponse = Type.Object(
  {
    jobId: Type.String({ description: 'poll it at GET /api/queue/job/{id} (calls) or GET /api/meetings/upload-status/{jobId} (meetings)' }),
    message: Type.String(),
  },
  { $id: 'UploadResponse' },
);

/** Documents the multipart form; the route reads it as a stream, so this is never validated. */
export const CallAudioForm = Type.Object({
  file: Type.String({ format: 'binary', description: 'one recording of at most 25 MB: WAV, MP3, M4A/AAC, OGG/Opus, FLAC or WebM, told by its content' }),
  audioDate: Text(40, 'when the call took place: the file’s last-modified time (ISO 8601); absent means now'),
  teamId: Text(200, 'the team the call belongs to'),
  representative: Text(320, 'the representative’s e-mail, a member of the team'),
  repName: Text(200, 'the representative’s first name, or N/A'),
});

export const CallTextBody = Type.Object({
  fileName: Text(255, 'the transcript file’s name, shown in messages about it'),
  content: Text(2_097_152, 'the transcript as text: `Name: text` lines, `[hh:mm:ss] Name:` lines, WebVTT, SRT, Zoom or Google Meet exports; at most 1 MB'),
  date: Text(40, 'when the call took place (ISO 8601); absent means now'),
  teamId: Text(200, 'the team the call belongs to'),
  representative: Text(320, 'the representative’s e-mail, a member of the team'),
  repName: Text(200, 'the representative’s first name, or N/A'),
});

export const MeetingUploadBody = Type.Object({
  meetingName: Text(255, 'the file name; the meeting title is this without its extension (.txt, .md or .text)'),
  content: Text(1_048_576, 'the transcript as text, at most 100 KB'),
  teamId: Text(200, 'the team the meeting belongs to'),
  repEmail: Text(320, 'the representative’s e-mail, a member of the team'),
  notes: Text(10_000, 'notes typed in the upload dialog'),
  date: Text(40, 'when the meeting took place (ISO 8601); absent means now'),
});

export const JobStatusResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('waiting'), Type.Literal('active'), Type.Literal('completed'), Type.Literal('failed')]),
    isCompleted: Type.Boolean(),
    isFailed: Type.Boolean(),
    failedReason: Type.String({ description: "empty unless failed: 'Processing failed for {file}: {reason}'" }),
    activityId: Type.String({
      description: 'beyond the spec: the id of the call or meeting the job processes, for GET /api/calls/summary/{callId} or /api/meetings/summary/{meetingId}',
    }),
  },
  { $id: 'JobStatusResponse' },
);

export const JobIdParams = Type.Object({ id: Type.String({ maxLength: 200, description: 'the job id an upload returned' }) });
export const MeetingJobIdParams = Type.Object({ jobId: Type.String({ maxLength: 200, description: 'the job id the meeting upload returned' }) });
export const ActivityIdParams = Type.Object({ id: Type.String({ maxLength: 200, description: 'the call or meeting id' }) });

export const DeletedResponse = Type.Object({ message: Type.String() }, { $id: 'DeletedResponse' });
