/** parlance.analytics.v1.ActivitiesService: the calls and meetings lists, sharing and issue reports. */
import { randomUUID } from 'node:crypto';
import { activityKindName, activityKindOf } from '@parlance/platform/activity/activity-kind';
import type { Database, Executor } from '@parlance/platform/db/database';
import { failedPrecondition, invalidArgument, notFound } from '@parlance/platform/errors';
import type { ServiceImplementation } from '@parlance/platform/grpc/grpc-server';
import { requireCompanyId } from '@parlance/platform/grpc/request-context';
import type { Mailer } from '@parlance/platform/mail/mailer';
import type { ActivitiesServiceService} from '@parlance/proto/parlance/analytics/v1/activities';
import { type ActivityRow } from '@parlance/proto/parlance/analytics/v1/activities';
import type { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { findActivity, type ListedActivity } from '../db/activities.repository.js';
import { listActivities } from '../db/activity-list.js';
import { insertFeedback, listFeedback } from '../db/feedback.repository.js';
import { activityDurationSeconds, activityStatus } from '../domain/activity-state.js';
import { pageCount, readListRequest, readPage } from '../domain/list-request.js';
import { sharedSummaryMessage } from '../domain/shared-summary.js';

export const FEEDBACK_MAX_CHARACTERS = 1000;

export const ACTIVITY_MESSAGES = {
  notFound: (kind: string, id: string) => `${kind === 'meeting' ? 'Meeting' : 'Call'} ${id} not found.`,
  notScored: (kind: string) => `This ${kind} is still being analysed; share it once its summary is ready.`,
  emptyDescription: 'Please describe the issue.',
  descriptionTooLong: `The description must be at most ${FEEDBACK_MAX_CHARACTERS} characters.`,
} as const;

export interface ActivitiesServiceDependencies {
  db: Database<Record<string, unknown>>;
  /** Where the lists are read: connections that keep the plans of prepared statements (activity-list.ts). */
  lists: Executor;
  mailer: Mailer;
}

export function activitiesService({ db, lists, mailer }: ActivitiesServiceDependencies): ServiceImplementation<typeof ActivitiesServiceService> {
  const activityOf = async (activityId: string, kind: ActivityKind) => {
    const kindName = activityKindName(kind);
    const activity = await findActivity(db, requireCompanyId(), activityId, kindName);
    if (!activity) throw notFound(ACTIVITY_MESSAGES.notFound(kindName, activityId));
    return activity;
  };

  return {
    async listActivities(request) {
      const companyId = requireCompanyId();
      const query = readListRequest(request);
      const { rows, total } = await listActivities(lists, companyId, query);
      return { rows: rows.map(activityRow), total, totalPages: pageCount(total, query.limit) };
    },

    async shareActivity({ activityId, kind, email, sharedBy }) {
      const activity = await activityOf(activityId, kind);
      const { received, evaluated } = activity;
      if (!evaluated) throw failedPrecondition(ACTIVITY_MESSAGES.notScored(received.kind));
      await mailer.send(
        sharedSummaryMessage(email.trim(), {
          kind: received.kind,
          name: displayName(activity),
          occurredAt: received.occurredAt,
          representative: received.representativeName && received.representativeName !== 'N/A' ? `${received.representativeName} (${received.representativeEmail})` : received.representativeEmail,
          score: evaluated.score,
          summary: evaluated.summary,
          improvements: evaluated.improvements,
          sharedBy,
        }),
      );
      return {};
    },

    async submitFeedback({ activityId, kind, description, reporterEmail, reporterName }) {
      const text = description.trim();
      if (text === '') throw invalidArgument(ACTIVITY_MESSAGES.emptyDescription, { field: 'description' });
      if ([...text].length > FEEDBACK_MAX_CHARACTERS) throw invalidArgument(ACTIVITY_MESSAGES.descriptionTooLong, { field: 'description' });
      const activity = await activityOf(activityId, kind);
      const id = randomUUID();
      await insertFeedback(db, {
        id,
        companyId: requireCompanyId(),
        activityId: activity.id,
        kind: activity.received.kind,
        activityName: displayName(activity),
        description: text,
        reporterEmail,
        reporterName,
      });
      return { feedbackId: id };
    },

    async listFeedback(request) {
      const page = readPage(request.page, request.limit);
      const { reports, total } = await listFeedback(db, requireCompanyId(), page);
      return {
        reports: reports.map((report) => ({ ...report, kind: activityKindOf(report.kind) })),
        total,
        totalPages: pageCount(total, page.limit),
      };
    },
  };
}

/** How people know an activity: a meeting by its title, a call by the file it was uploaded as. */
function displayName({ received }: ListedActivity): string {
  return (received.kind === 'meeting' ? received.title : received.fileName) || received.title || received.fileName;
}

function activityRow(activity: ListedActivity): ActivityRow {
  const { received, transcribed, evaluated } = activity;
  const isMeeting = received.kind === 'meeting';
  return {
    id: activity.id,
    kind: activityKindOf(received.kind),
    teamId: received.teamId,
    occurredAt: received.occurredAt,
    representativeEmail: received.representativeEmail,
    representativeName: received.representativeName,
    contactId: received.contactId,
    contactName: received.contactName,
    contactCompany: received.contactCompany,
    contactRole: received.contactRole,
    link: received.link,
    title: received.title,
    fileName: received.fileName,
    media: received.media,
    status: activityStatus(activity),
    durationSeconds: activityDurationSeconds(activity),
    score: evaluated?.score,
    scriptMatch: evaluated?.scriptMatch ?? undefined,
    isSuccessful: evaluated?.isSuccessful ?? undefined,
    results: evaluated?.results ?? [],
    criteriaNeedingReview: evaluated?.criteriaNeedingReview ?? 0,
    transcript: transcribed?.transcript ?? '',
    // A call's summary is read with its transcript when opened, not with the list.
    summary: isMeeting ? (evaluated?.summary ?? '') : '',
    improvements: isMeeting ? (evaluated?.improvements ?? []) : [],
  };
}
