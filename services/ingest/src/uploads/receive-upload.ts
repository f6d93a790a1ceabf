/**
 * Receiving one uploaded file: check the request, stream the bytes to the media store while
 * enforcing the limits and identifying audio by its content, then store the activity, its job and
 * the `ingest.activity-received.v1` event in one transaction. Only then is the upload answered,
 * so an acknowledged upload survives a crash; a refused or failed one leaves nothing behind.
 */
import { randomUUID } from 'node:crypto';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import { AUDIO_MAX_BYTES } from '@parlance/platform/activity/upload-activity';
import { isUniqueViolation, type Database } from '@parlance/platform/db/database';
import { invalidArgument } from '@parlance/platform/errors';
import { outboxMessageFor } from '@parlance/platform/events/event-envelope';
import { enqueue } from '@parlance/platform/outbox/enqueue';
import { ActivityReceived, type TeamMember } from '@parlance/proto/parlance/ingest/v1/events';
import { MediaKind, type UploadActivityRequest, type UploadHeader } from '@parlance/proto/parlance/ingest/v1/ingest';
import { findReceived, insertActivityWithJob } from '../db/activities.repository.js';
import { outbox, type MediaKindName } from '../db/schema.js';
import { AUDIO_HEAD_BYTES } from '../domain/audio-format.js';
import {
  CALL_TEXT_MAX_BYTES,
  checkAudioContent,
  checkUploadRequest,
  hasMeetingExtension,
  MEETING_MAX_BYTES,
  representativeNameOf,
  UPLOAD_MESSAGES,
} from '../domain/upload-rules.js';
import { activityKindName } from '../grpc/activity-kinds.js';
import type { MediaStore } from '../media/media-store.js';

export const ACTIVITY_RECEIVED = 'ingest.activity-received.v1';

/** The teams an upload may name: identity's, asked over gRPC. */
export interface TeamDirectory {
  /** The team's members (e-mails lower-case), or undefined when the company has no such team. */
  members(teamId: string): Promise<TeamMember[] | undefined>;
}

export interface UploadDependencies {
  db: Database<Record<string, unknown>>;
  media: MediaStore;
  teams: TeamDirectory;
}

export interface AcceptedUpload {
  activityId: string;
  jobId: string;
  /** The source's external id was received before: these are the first upload's ids, and nothing was stored. */
  alreadyReceived: boolean;
}

/** Where an activity may come from besides an upload: the integrations' ids. */
const IMPORT_SOURCES = new Set(['close-crm', 'hubspot-crm', 'google-workspace']);
const EXTERNAL_ID_MAX = 200;

interface Limits {
  maxBytes: number;
  tooLarge: (fileNames: readonly string[]) => string;
}

export async function receiveUpload(deps: UploadDependencies, companyId: string, parts: AsyncIterable<UploadActivityRequest>): Promise<AcceptedUpload> {
  const iterator = parts[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = first.done ? undefined : first.value.part?.$case === 'header' ? first.value.part.value : undefined;
  if (!header) throw invalidArgument('An upload must begin with its header (file name, team and representative).');

  const request = await checkHeader(deps.teams, companyId, header);
  if (request.externalId !== '') {
    const received = await findReceived(deps.db, companyId, request.source, request.externalId);
    if (received) {
      // Read to the end, so the sender's stream finishes as it would have; nothing is kept.
      for (let next = await iterator.next(); !next.done; next = await iterator.next());
      return { ...received, alreadyReceived: true };
    }
  }
  const writer = await deps.media.begin();
  try {
    // The first bytes tell what audio it is; `writer.bytes` counts those before this chunk.
    const head: Buffer[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const part = next.value.part;
      if (part?.$case !== 'chunk') throw invalidArgument('An upload carries its header once, then only the bytes of the file.');
      if (writer.bytes + part.value.length > request.limits.maxBytes) throw invalidArgument(request.limits.tooLarge([header.fileName]));
      if (writer.bytes < AUDIO_HEAD_BYTES) head.push(Buffer.from(part.value.subarray(0, AUDIO_HEAD_BYTES - writer.bytes)));
      await writer.write(part.value);
    }

    const mediaFormat = formatOf(request.mediaKind, header.fileName, Buffer.concat(head));
    const activityId = randomUUID();
    const jobId = randomUUID();
    const { bytes, sha256 } = await writer.commit(`${companyId}/${activityId}`);
    const occurredAt = header.occurredAt ?? new Date();
    const activity = {
      id: activityId,
      companyId,
      kind: request.kind,
      teamId: header.teamId.trim(),
      representativeEmail: request.representativeEmail,
      representativeName: representativeNameOf(header.representativeName, request.representative),
      fileName: header.fileName,
      title: header.title.trim() || titleOf(header.fileName),
      notes: header.notes,
      occurredAt,
      source: request.source,
      externalId: request.externalId,
      contactId: header.contact?.id.trim() ?? '',
      contactName: header.contact?.name.trim() ?? '',
      contactCompany: header.contact?.company.trim() ?? '',
      contactRole: header.contact?.role.trim() ?? '',
      link: header.link.trim(),
      mediaKind: request.mediaKind,
      mediaFormat,
      mediaKey: `${companyId}/${activityId}`,
      mediaBytes: bytes,
      mediaSha256: sha256,
    };
    const payload = ActivityReceived.encode({
      activityId,
      jobId,
      kind: header.kind,
      teamId: activity.teamId,
      representativeEmail: activity.representativeEmail,
      representativeName: activity.representativeName,
      fileName: activity.fileName,
      title: activity.title,
      notes: activity.notes,
      mediaKind: header.mediaKind,
      mediaFormat,
      mediaBytes: bytes,
      occurredAt,
      source: activity.source,
      contact: { id: activity.contactId, name: activity.contactName, company: activity.contactCompany, role: activity.contactRole },
      link: activity.link,
      teamMembers: request.teamMembers,
    }).finish();
    try {
      await deps.db.transaction(async (tx) => {
        await insertActivityWithJob(tx, activity, { id: jobId, companyId, activityId, kind: request.kind, fileName: header.fileName, status: 'waiting' });
        await enqueue(tx, outbox, [outboxMessageFor({ type: ACTIVITY_RECEIVED, companyId, producer: 'ingest', payload })]);
      });
    } catch (error) {
      await deps.media.remove(activity.mediaKey);
      // The same import sent twice at once: the other one was stored first, and answers for both.
      const received = request.externalId !== '' && isUniqueViolation(error) ? await findReceived(deps.db, companyId, request.source, request.externalId) : undefined;
      if (received) return { ...received, alreadyReceived: true };
      throw error;
    }
    return { activityId, jobId, alreadyReceived: false };
  } finally {
    await writer.abort();
  }
}

interface CheckedHeader {
  kind: ActivityKindName;
  source: string;
  externalId: string;
  mediaKind: MediaKindName;
  representativeEmail: string;
  /** The representative as their team knows them. */
  representative: TeamMember;
  /** Carried on the event, so that transcription can tell the company's people by name. */
  teamMembers: TeamMember[];
  limits: Limits;
}

async function checkHeader(teams: TeamDirectory, companyId: string, header: UploadHeader): Promise<CheckedHeader> {
  const kind = activityKindName(header.kind);
  if (!kind) throw invalidArgument('An upload must say whether it is a call or a meeting.');
  const mediaKind = header.mediaKind === MediaKind.MEDIA_KIND_AUDIO ? 'audio' : header.mediaKind === MediaKind.MEDIA_KIND_TEXT ? 'text' : undefined;
  if (!mediaKind || (kind === 'meeting' && mediaKind === 'audio')) throw invalidArgument('A call is audio or text; a meeting is text.');

  const checked = checkUploadRequest(kind === 'call' ? 'calls' : 'meetings', {
    companyId,
    teamId: header.teamId,
    representative: header.representativeEmail,
    fileCount: header.fileName.trim() === '' ? 0 : 1,
  });
  if (!checked.ok) throw invalidArgument(checked.message);
  if (kind === 'meeting' && !hasMeetingExtension(header.fileName)) throw invalidArgument(UPLOAD_MESSAGES.notTextFiles([header.fileName]));

  // The lists open the link in a new tab: anything but a web address (javascript:, data:) is refused.
  if (header.link.trim() !== '' && !isWebAddress(header.link.trim())) throw invalidArgument('A meeting link must be an http or https address.');

  const source = header.source.trim() || 'upload';
  if (source !== 'upload' && !IMPORT_SOURCES.has(source)) throw invalidArgument(`An activity cannot come from "${source}": it is an upload or comes from ${[...IMPORT_SOURCES].join(', ')}.`);
  const externalId = header.externalId.trim();
  if (externalId !== '' && source === 'upload') throw invalidArgument('Only an activity imported from an integration has an external id.');
  if (externalId.length > EXTERNAL_ID_MAX) throw invalidArgument(`An external id is at most ${EXTERNAL_ID_MAX} characters.`);

  const representativeEmail = header.representativeEmail.trim().toLowerCase();
  const teamMembers = await teams.members(header.teamId.trim());
  if (!teamMembers) throw invalidArgument(UPLOAD_MESSAGES.teamNotInCompany);
  const representative = teamMembers.find((member) => member.email === representativeEmail);
  if (!representative) throw invalidArgument(UPLOAD_MESSAGES.representativeNotInTeam(representativeEmail));

  const limits: Limits =
    mediaKind === 'audio'
      ? { maxBytes: AUDIO_MAX_BYTES, tooLarge: UPLOAD_MESSAGES.audioTooLarge }
      : kind === 'meeting'
        ? { maxBytes: MEETING_MAX_BYTES, tooLarge: UPLOAD_MESSAGES.meetingTooLarge }
        : { maxBytes: CALL_TEXT_MAX_BYTES, tooLarge: UPLOAD_MESSAGES.textTooLarge };
  return { kind, source, externalId, mediaKind, representativeEmail, representative, teamMembers, limits };
}

/**
 * Audio is told by its content; a file that is no audio we read is refused here, naming it. An
 * empty file is taken, and its job fails with a reason, as a truncated or corrupt one does.
 */
function formatOf(mediaKind: MediaKindName, fileName: string, head: Buffer): string {
  if (mediaKind === 'text') return 'text';
  if (head.length === 0) return 'empty';
  const checked = checkAudioContent(fileName, head);
  if (!checked.ok) throw invalidArgument(checked.message);
  return checked.format.container;
}

function isWebAddress(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Spec §2.4: the meeting title is the file name without its extension. */
function titleOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}
