import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { activityKindName } from '@parlance/platform/activity/activity-kind';
import { invalidArgument, permissionDenied } from '@parlance/platform/errors';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { limitBy, type RateLimiter } from '../../../plugins/rate-limit.js';
import { FeedbackBody, FeedbackListQuery, FeedbackListResponse, ShareBody, ShareFeedbackResponse } from '../../../schemas/activities.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { SIGNED_IN, SIGNED_IN_CHANGE } from '../../../schemas/security.schema.js';
import { ActivityIdParams } from '../../../schemas/uploads.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { pageOf } from './activity-filters.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse } as const;

/** Spec part 2 §5: text, @, text, dot, text. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const SHARE_FEEDBACK_MESSAGES = {
  invalidEmail: 'Please enter a valid email address',
  shared: (email: string) => `Summary shared with ${email}.`,
  feedbackSubmitted: 'Feedback submitted successfully',
  adminsOnly: 'Only admins can read issue reports.',
} as const;

const KINDS = [
  { path: 'calls', kind: ActivityKind.ACTIVITY_KIND_CALL, noun: 'call' },
  { path: 'meetings', kind: ActivityKind.ACTIVITY_KIND_MEETING, noun: 'meeting' },
] as const;

/**
 * Share Summary and Report Issue (spec part 2 §2.6, §2.7, §7): analytics e-mails the summary and
 * Areas for Improvement through the mailer, and keeps the reports, which the company's admins read
 * at GET /api/feedback (beyond the spec).
 */
export async function shareFeedbackRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions; limiter: RateLimiter }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { activities } = options.services.analytics;

  for (const { path, kind, noun } of KINDS) {
    typed.post(
      `/api/${path}/share/:id`,
      {
        schema: {
          operationId: noun === 'call' ? 'shareCall' : 'shareMeeting',
          summary: `E-mail a ${noun}’s summary and Areas for Improvement (no transcript)`,
          description: `HTML and plain text, through the mailer. 400 'Please enter a valid email address'; 404 for an unknown ${noun} or another company’s; 409 while it is not yet scored; 429 past 30 shares an hour per user.`,
          security: SIGNED_IN_CHANGE,
          tags: [path],
          params: ActivityIdParams,
          body: ShareBody,
          response: { 200: ShareFeedbackResponse, 409: ErrorResponse, ...errors },
        },
        preHandler: [options.sessions.requireCaller, limitBy(options.limiter, [['share-summary', (request) => request.caller?.user.id ?? '']])],
      },
      async (request) => {
        const email = request.body?.email?.trim() ?? '';
        if (!EMAIL.test(email)) throw invalidArgument(SHARE_FEEDBACK_MESSAGES.invalidEmail);
        await activities.shareActivity({ activityId: request.params.id, kind, email, sharedBy: sharedBy(request) }, callAs(request));
        return { success: true, message: SHARE_FEEDBACK_MESSAGES.shared(email) };
      },
    );

    typed.post(
      `/api/${path}/feedback/:id`,
      {
        schema: {
          operationId: noun === 'call' ? 'sendCallFeedback' : 'sendMeetingFeedback',
          summary: `Report an issue with a ${noun}’s analysis`,
          description: `Kept for the company’s admins (GET /api/feedback). 400 for an empty description or one over 1,000 characters; 404 for an unknown ${noun} or another company’s.`,
          security: SIGNED_IN_CHANGE,
          tags: [path],
          params: ActivityIdParams,
          body: FeedbackBody,
          response: { 200: ShareFeedbackResponse, ...errors },
        },
        preHandler: options.sessions.requireCaller,
      },
      async (request) => {
        const description = request.body?.description ?? '';
        const user = request.caller!.user;
        await activities.submitFeedback(
          { activityId: request.params.id, kind, description, reporterEmail: user.email, reporterName: fullName(user) },
          callAs(request),
        );
        return { success: true, message: SHARE_FEEDBACK_MESSAGES.feedbackSubmitted };
      },
    );
  }

  typed.get(
    '/api/feedback',
    {
      schema: {
        operationId: 'listFeedback',
        summary: 'The issues people reported with calls and meetings, newest first (admins only; beyond the spec)',
        security: SIGNED_IN,
        tags: ['feedback'],
        querystring: FeedbackListQuery,
        response: { 200: FeedbackListResponse, ...errors },
      },
      preHandler: options.sessions.requireCaller,
    },
    async (request) => {
      if (request.caller!.user.role !== 'admin') throw permissionDenied(SHARE_FEEDBACK_MESSAGES.adminsOnly);
      const page = pageOf(request.query);
      const answer = await activities.listFeedback(page, callAs(request));
      return {
        data: answer.reports.map((report) => ({
          id: report.id,
          activityId: report.activityId,
          activityType: activityKindName(report.kind),
          activityName: report.activityName,
          description: report.description,
          reporter: { email: report.reporterEmail, name: report.reporterName },
          createdAt: (report.createdAt ?? new Date(0)).toISOString(),
        })),
        pagination: { ...page, total: answer.total, totalPages: answer.totalPages },
      };
    },
  );
}

const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`.trim();

function sharedBy(request: FastifyRequest): string {
  const user = request.caller!.user;
  const name = fullName(user);
  return name ? `${name} (${user.email})` : user.email;
}
