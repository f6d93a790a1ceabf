import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalidArgument, notFound } from '@parlance/platform/errors';
import { AUDIO_MAX_BYTES, chunksOf, UPLOAD_CHUNK_BYTES, uploadActivity } from '@parlance/platform/activity/upload-activity';
import { ActivityKind, MediaKind, type UploadHeader } from '@parlance/proto/parlance/ingest/v1/ingest';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { SIGNED_IN, SIGNED_IN_CHANGE } from '../../../schemas/security.schema.js';
import {
  ActivityIdParams,
  CallAudioForm,
  CallTextBody,
  DeletedResponse,
  JobIdParams,
  JobStatusResponse,
  MeetingJobIdParams,
  MeetingUploadBody,
  UploadResponse,
} from '../../../schemas/uploads.schema.js';
import type { ServiceClients } from '../../../service-clients.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } as const;

/**
 * How much of one audio file the gateway reads: a byte past the 25 MB limit, so ingest sees the
 * file is too large and answers with the spec's sentence naming it.
 */
const AUDIO_READ_LIMIT_BYTES = AUDIO_MAX_BYTES + 1;
/** An upload of 25 MB over a slow link to ingest still finishes. */
const UPLOAD_DEADLINE_MS = 5 * 60_000;

export const UPLOAD_ROUTE_MESSAGES = {
  callReceived: 'File received. Processing has started.',
  meetingReceived: 'Meeting received. Processing has started.',
  callDeleted: 'Call deleted successfully.',
  meetingDeleted: 'Meeting deleted successfully.',
  badDate: (field: string) => `${field} must be a date and time (ISO 8601), e.g. 2026-11-22T10:30:00Z.`,
  oneFile: 'Send one audio file per upload, in the field "file".',
  notMultipart: 'Send the audio as multipart/form-data with the fields file, audioDate, teamId, representative and repName.',
} as const;

/**
 * Uploads of calls (audio or text) and meetings (text), their jobs, and deletions (spec part 2
 * §7). Ingest stores each upload durably before answering; the answer here follows it.
 */
export async function uploadsRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  await app.register(fastifyMultipart, { throwFileSizeLimit: false });
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { ingest } = options.services.ingest;
  const signedIn = { preHandler: options.sessions.requireCaller };

  const upload = (request: FastifyRequest, header: UploadHeader, chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) =>
    uploadActivity(ingest.raw, header, chunks, { ...callAs(request), deadlineMs: UPLOAD_DEADLINE_MS });

  typed.post(
    '/api/calls/transcribe/audio',
    {
      schema: {
        operationId: 'transcribeCallAudio',
        summary: 'Upload a call recording to transcribe and score',
        description: 'Answers once the recording is stored; poll the job for the transcript. The parts may come in any order.',
        consumes: ['multipart/form-data'],
        body: CallAudioForm,
        security: SIGNED_IN_CHANGE,
        tags: ['calls'],
        response: { 200: UploadResponse, ...errors },
      },
      // The form is read as a stream below; the schema above only documents it.
      validatorCompiler: () => () => true,
      ...signedIn,
    },
    async (request) => {
      if (!request.isMultipart()) throw invalidArgument(UPLOAD_ROUTE_MESSAGES.notMultipart);
      const spill = await mkdtemp(join(tmpdir(), 'parlance-upload-'));
      try {
        const received = await readAudioForm(request, join(spill, 'file'));
        const header: UploadHeader = {
          kind: ActivityKind.ACTIVITY_KIND_CALL,
          mediaKind: MediaKind.MEDIA_KIND_AUDIO,
          fileName: received.fileName,
          teamId: received.fields.teamId ?? '',
          representativeEmail: received.fields.representative ?? '',
          representativeName: received.fields.repName ?? '',
          occurredAt: parseDate(received.fields.audioDate, 'audioDate'),
          title: '',
          notes: '',
          contact: undefined,
          link: '',
          source: '',
          externalId: '',
        };
        const chunks = received.path ? createReadStream(received.path, { highWaterMark: UPLOAD_CHUNK_BYTES }) : [];
        const { jobId } = await upload(request, header, chunks);
        return { jobId, message: UPLOAD_ROUTE_MESSAGES.callReceived };
      } finally {
        await rm(spill, { recursive: true, force: true });
      }
    },
  );

  typed.post(
    '/api/calls/transcribe/text',
    {
      schema: {
        operationId: 'transcribeCallText',
        summary: 'Upload a call transcript as text',
        description: 'The transcript is read for speakers and times; text without speaker names becomes one speaker, with a warning.',
        security: SIGNED_IN_CHANGE,
        tags: ['calls'],
        body: CallTextBody,
        response: { 200: UploadResponse, ...errors },
      },
      bodyLimit: 4 * 1_048_576,
      ...signedIn,
    },
    async (request) => {
      const body = request.body;
      const header: UploadHeader = {
        kind: ActivityKind.ACTIVITY_KIND_CALL,
        mediaKind: MediaKind.MEDIA_KIND_TEXT,
        fileName: body.fileName ?? '',
        teamId: body.teamId ?? '',
        representativeEmail: body.representative ?? '',
        representativeName: body.repName ?? '',
        occurredAt: parseDate(body.date, 'date'),
        title: '',
        notes: '',
        contact: undefined,
        link: '',
        source: '',
        externalId: '',
      };
      const { jobId } = await upload(request, header, chunksOf(Buffer.from(body.content ?? '', 'utf8')));
      return { jobId, message: UPLOAD_ROUTE_MESSAGES.callReceived };
    },
  );

  typed.post(
    '/api/meetings/upload',
    {
      schema: {
        operationId: 'uploadMeeting',
        summary: 'Upload a meeting transcript (.txt, .md or .text, at most 100 KB)',
        description: 'Accepted with 202 once stored; poll GET /api/meetings/upload-status/{jobId}.',
        security: SIGNED_IN_CHANGE,
        tags: ['meetings'],
        body: MeetingUploadBody,
        response: { 202: UploadResponse, ...errors },
      },
      bodyLimit: 2 * 1_048_576,
      ...signedIn,
    },
    async (request, reply) => {
      const body = request.body;
      const header: UploadHeader = {
        kind: ActivityKind.ACTIVITY_KIND_MEETING,
        mediaKind: MediaKind.MEDIA_KIND_TEXT,
        fileName: body.meetingName ?? '',
        teamId: body.teamId ?? '',
        representativeEmail: body.repEmail ?? '',
        representativeName: '',
        occurredAt: parseDate(body.date, 'date'),
        title: '',
        notes: body.notes ?? '',
        contact: undefined,
        link: '',
        source: '',
        externalId: '',
      };
      const { jobId } = await upload(request, header, chunksOf(Buffer.from(body.content ?? '', 'utf8')));
      return reply.code(202).send({ jobId, message: UPLOAD_ROUTE_MESSAGES.meetingReceived });
    },
  );

  const jobStatus = async (request: FastifyRequest, jobId: string, kind: ActivityKind): Promise<Static<typeof JobStatusResponse>> => {
    const { job } = await ingest.getJob({ jobId }, callAs(request));
    // A call's job is not a meeting's: each poll answers for its own kind only.
    if (!job || job.kind !== kind) throw notFound(`Job ${jobId} not found.`);
    // Ingest's statuses are the schema's four; the generated type is a plain string.
    return {
      status: job.status as Static<typeof JobStatusResponse>['status'],
      isCompleted: job.isCompleted,
      isFailed: job.isFailed,
      failedReason: job.failedReason,
      activityId: job.activityId,
    };
  };

  typed.get(
    '/api/queue/job/:id',
    {
      schema: {
        operationId: 'getCallJob',
        summary: 'Where a call upload is in processing',
        description: 'Polled every 2 s. 404 for an unknown job or another company’s.',
        security: SIGNED_IN,
        tags: ['calls'],
        params: JobIdParams,
        response: { 200: JobStatusResponse, ...errors },
      },
      ...signedIn,
    },
    (request) => jobStatus(request, request.params.id, ActivityKind.ACTIVITY_KIND_CALL),
  );

  typed.get(
    '/api/meetings/upload-status/:jobId',
    {
      schema: {
        operationId: 'getMeetingUploadStatus',
        summary: 'Where a meeting upload is in processing',
        description: 'Polled every 2 s. 404 for an unknown job or another company’s.',
        security: SIGNED_IN,
        tags: ['meetings'],
        params: MeetingJobIdParams,
        response: { 200: JobStatusResponse, ...errors },
      },
      ...signedIn,
    },
    (request) => jobStatus(request, request.params.jobId, ActivityKind.ACTIVITY_KIND_MEETING),
  );

  typed.delete(
    '/api/calls/:id',
    {
      schema: {
        operationId: 'deleteCall',
        summary: 'Delete a call everywhere: recording, transcript, evaluation and analytics',
        security: SIGNED_IN_CHANGE,
        tags: ['calls'],
        params: ActivityIdParams,
        response: { 200: DeletedResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      await ingest.deleteActivity({ activityId: request.params.id, kind: ActivityKind.ACTIVITY_KIND_CALL }, callAs(request));
      return { message: UPLOAD_ROUTE_MESSAGES.callDeleted };
    },
  );

  typed.delete(
    '/api/meetings/:id',
    {
      schema: {
        operationId: 'deleteMeeting',
        summary: 'Delete a meeting everywhere: transcript, evaluation and analytics',
        security: SIGNED_IN_CHANGE,
        tags: ['meetings'],
        params: ActivityIdParams,
        response: { 200: DeletedResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      await ingest.deleteActivity({ activityId: request.params.id, kind: ActivityKind.ACTIVITY_KIND_MEETING }, callAs(request));
      return { message: UPLOAD_ROUTE_MESSAGES.meetingDeleted };
    },
  );
}

interface AudioForm {
  fields: Record<string, string>;
  fileName: string;
  /** Where the file was written; undefined when the form had no file. */
  path: string | undefined;
}

/**
 * Reads the form whatever the order of its parts (the web app sends the file first): the file goes
 * to `path` (at most a byte past the limit), the fields are kept.
 */
async function readAudioForm(request: FastifyRequest, path: string): Promise<AudioForm> {
  const fields: Record<string, string> = {};
  let fileName = '';
  let written: string | undefined;
  const parts = request.parts({ limits: { fileSize: AUDIO_READ_LIMIT_BYTES, files: 1, fields: 20, fieldSize: 4096 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw invalidArgument(UPLOAD_ROUTE_MESSAGES.oneFile);
      fileName = part.filename || 'recording';
      await pipeline(part.file, createWriteStream(path));
      written = path;
    } else {
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
    }
  }
  return { fields, fileName, path: written };
}

/** Absent or blank means now (ingest's default); anything else must be a date. */
function parseDate(value: string | undefined, field: string): Date | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw invalidArgument(UPLOAD_ROUTE_MESSAGES.badDate(field));
  return date;
}
