import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { notFound } from '@parlance/platform/errors';
import { callServerStreaming } from '@parlance/platform/grpc/streaming';
import type { ActivityRow, ListActivitiesRequest } from '@parlance/proto/parlance/analytics/v1/activities';
import { ActivityKind, IngestServiceService, MediaKind, type MediaInfo } from '@parlance/proto/parlance/ingest/v1/ingest';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { CallListQuery, CallListResponse, MeetingListQuery, MeetingListResponse } from '../../../schemas/activities.schema.js';
import { errorBody, ErrorResponse } from '../../../schemas/error.schema.js';
import { SIGNED_IN } from '../../../schemas/security.schema.js';
import { ActivityIdParams } from '../../../schemas/uploads.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { callView, listView, meetingView } from './activity-views.js';
import { listRequestOf } from './activity-filters.js';
import { requestedRange, resolveRange } from './byte-range.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } as const;

/** A long recording streamed to a slow listener still finishes. */
const RECORDING_DEADLINE_MS = 30 * 60_000;

const noRecording = (id: string) => `Call ${id} has no recording.`;

/**
 * The calls and meetings lists (spec part 2 §7 GET /calls/ and GET /meetings), read from
 * analytics, and a call's recording (beyond the spec), streamed from ingest with byte ranges so
 * the summary dialog can play from the moment a piece of evidence was said.
 */
export async function activitiesRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { activities } = options.services.analytics;
  const { ingest } = options.services.ingest;
  const signedIn = { preHandler: options.sessions.requireCaller };

  const pageOf = async <T>(request: FastifyRequest, filters: ListActivitiesRequest, view: (row: ActivityRow) => T) =>
    listView(filters, await activities.listActivities(filters, callAs(request)), view);

  typed.get(
    '/api/calls/',
    {
      schema: {
        operationId: 'listCalls',
        summary: 'One page of the calls of the company, newest first, filtered',
        description:
          'Every filter of spec part 2 §3, and needsReview=true (only calls with a criterion that needs review). Lists are repeated or comma-separated; criterion, duration, score and scriptMatch are JSON. ' +
          'A call appears when received (status processing) and gains its score when scored. A filter that cannot be applied is 400 with a sentence naming it.',
        security: SIGNED_IN,
        tags: ['calls'],
        querystring: CallListQuery,
        response: { 200: CallListResponse, ...errors },
      },
      ...signedIn,
    },
    (request) => pageOf(request, listRequestOf(ActivityKind.ACTIVITY_KIND_CALL, { ...request.query, ids: request.query.callIds }), callView),
  );

  typed.get(
    '/api/meetings',
    {
      schema: {
        operationId: 'listMeetings',
        summary: 'One page of the meetings of the company, newest first, filtered',
        description:
          'The filters of spec part 2 §7 GET /meetings: teamIds, rep_emails, contactIds and meetingIds repeated (or comma-separated); criterion, duration, score and scriptMatch as JSON; ' +
          'and needsReview=true (only meetings with a criterion that needs review). ' +
          'Each meeting carries its transcript and summary. A filter that cannot be applied is 400 with a sentence naming it.',
        security: SIGNED_IN,
        tags: ['meetings'],
        querystring: MeetingListQuery,
        response: { 200: MeetingListResponse, ...errors },
      },
      ...signedIn,
    },
    (request) => {
      const { query } = request;
      return pageOf(request, listRequestOf(ActivityKind.ACTIVITY_KIND_MEETING, { ...query, representatives: query.rep_emails, ids: query.meetingIds }), meetingView);
    },
  );

  const readMedia = (request: FastifyRequest, activityId: string, offset: number, length: number) =>
    callServerStreaming(ingest.raw, IngestServiceService.readMedia, { activityId, offset, length }, { ...callAs(request), deadlineMs: RECORDING_DEADLINE_MS });

  /** The first message describes the media; without it ingest broke its contract. */
  const infoOf = async (parts: AsyncGenerator<{ info?: MediaInfo | undefined }>): Promise<MediaInfo> => {
    const first = await parts.next();
    if (first.done || !first.value.info) throw new Error('ingest answered a media read without describing the media');
    return first.value.info;
  };

  typed.get(
    '/api/calls/:id/recording',
    {
      schema: {
        operationId: 'getCallRecording',
        summary: 'A recorded call’s audio, with byte ranges (beyond the spec)',
        description:
          'The stored file as uploaded, with its content type. Honours one Range (206 with Content-Range; 416 past the end). ' +
          '404 for an unknown call, another company’s, a meeting, or a call uploaded as text.',
        security: SIGNED_IN,
        tags: ['calls'],
        params: ActivityIdParams,
        response: {
          200: Type.Unknown({ description: 'the audio' }),
          206: Type.Unknown({ description: 'the requested bytes of the audio' }),
          416: ErrorResponse,
          ...errors,
        },
      },
      ...signedIn,
    },
    async (request, reply) => {
      const { id } = request.params;
      const wanted = requestedRange(request.headers.range);
      let offset = 0;
      let length = 0;
      if (wanted.kind === 'from') {
        offset = wanted.start;
        length = wanted.end === undefined ? 0 : wanted.end - wanted.start + 1;
      } else if (wanted.kind === 'suffix') {
        // The last bytes: their start needs the size, asked for without reading any byte.
        const probe = readMedia(request, id, Number.MAX_SAFE_INTEGER, 0);
        const size = (await infoOf(probe)).totalBytes;
        await probe.return(undefined);
        offset = Math.max(0, size - wanted.length);
      }

      const parts = readMedia(request, id, offset, length);
      const info = await infoOf(parts);
      if (info.kind !== ActivityKind.ACTIVITY_KIND_CALL || info.mediaKind !== MediaKind.MEDIA_KIND_AUDIO || !info.contentType) {
        await parts.return(undefined);
        throw notFound(noRecording(id));
      }
      const total = info.totalBytes;
      const range = resolveRange(wanted, total);
      reply.headers({ 'accept-ranges': 'bytes', 'cache-control': 'private, no-cache' });
      if (range.kind === 'unsatisfiable') {
        await parts.return(undefined);
        return reply.code(416).header('content-range', `bytes */${total}`).send(errorBody(`The recording has ${total} bytes; the range asked for lies beyond them.`));
      }
      const body = Readable.from(
        (async function* () {
          for await (const { chunk } of parts) yield Buffer.from(chunk);
        })(),
      );
      reply.type(info.contentType);
      if (range.kind === 'whole') return reply.code(200).header('content-length', total).send(body);
      return reply
        .code(206)
        .headers({ 'content-range': `bytes ${range.start}-${range.end}/${total}`, 'content-length': range.end - range.start + 1 })
        .send(body);
    },
  );
}
