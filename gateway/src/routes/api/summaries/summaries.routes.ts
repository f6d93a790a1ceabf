import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DomainError, notFound } from '@parlance/platform/errors';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { Evaluation } from '@parlance/proto/parlance/scoring/v1/evaluation';
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { SIGNED_IN } from '../../../schemas/security.schema.js';
import { ActivitySummaryResponse, CallIdParams, MeetingIdParams } from '../../../schemas/summaries.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { activitySummaryView } from './summary-views.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } as const;

const SUMMARY_MESSAGES = {
  callNotFound: (id: string) => `Call ${id} not found.`,
  meetingNotFound: (id: string) => `Meeting ${id} not found.`,
} as const;

/**
 * The Call Summary and Analysis dialog (spec part 2 §2.5, §7) and its meeting twin: the transcript
 * from transcription and the evaluation from scoring, side by side. An activity that is
 * transcribed but not yet scored answers with its transcript and an empty summary.
 */
export async function summariesRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { transcripts } = options.services.transcription;
  const { evaluations } = options.services.scoring;
  const signedIn = { preHandler: options.sessions.requireCaller };

  const summaryOf = async (request: FastifyRequest, activityId: string, kind: ActivityKind, missing: string) => {
    const [transcript, evaluation] = await Promise.all([
      orNothing(transcripts.getTranscript({ activityId }, callAs(request)).then((response): Transcript | undefined => response.transcript)),
      orNothing(evaluations.getEvaluation({ activityId }, callAs(request)).then((response): Evaluation | undefined => response.evaluation)),
    ]);
    // A call's summary is not a meeting's: each route answers for its own kind only.
    const ownTranscript = transcript?.kind === kind ? transcript : undefined;
    const ownEvaluation = evaluation?.kind === kind ? evaluation : undefined;
    if (!ownTranscript && !ownEvaluation) throw notFound(missing);
    return activitySummaryView(ownTranscript, ownEvaluation);
  };

  typed.get(
    '/api/calls/summary/:callId',
    {
      schema: {
        operationId: 'getCallSummary',
        summary: 'A call’s transcript, summary and Areas for Improvement, with the evaluation behind them',
        description:
          'The spec’s transcript, summary and improvements, plus the transcript’s segments and the evaluation (null until the call is scored). ' +
          '404 for an unknown call, another company’s, or a meeting.',
        security: SIGNED_IN,
        tags: ['calls'],
        params: CallIdParams,
        response: { 200: ActivitySummaryResponse, ...errors },
      },
      ...signedIn,
    },
    (request) => summaryOf(request, request.params.callId, ActivityKind.ACTIVITY_KIND_CALL, SUMMARY_MESSAGES.callNotFound(request.params.callId)),
  );

  typed.get(
    '/api/meetings/summary/:meetingId',
    {
      schema: {
        operationId: 'getMeetingSummary',
        summary: 'A meeting’s transcript, summary and Areas for Improvement, with the evaluation behind them',
        description: 'The same shape as a call’s summary. 404 for an unknown meeting, another company’s, or a call.',
        security: SIGNED_IN,
        tags: ['meetings'],
        params: MeetingIdParams,
        response: { 200: ActivitySummaryResponse, ...errors },
      },
      ...signedIn,
    },
    (request) => summaryOf(request, request.params.meetingId, ActivityKind.ACTIVITY_KIND_MEETING, SUMMARY_MESSAGES.meetingNotFound(request.params.meetingId)),
  );
}

/** The answer, or undefined when the service has nothing for this activity (NOT_FOUND). */
async function orNothing<T>(call: Promise<T>): Promise<T | undefined> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not-found') return undefined;
    throw error;
  }
}
