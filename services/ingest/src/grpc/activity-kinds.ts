/** The activity and media kinds as the contract spells them (proto enums) and as ingest stores them. */
import { ActivityKind, MediaKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { ActivityKindName } from '@parlance/platform/activity/activity-kind';
import type { MediaKindName } from '../db/schema.js';

/**
 * Undefined for ACTIVITY_KIND_UNSPECIFIED or a value this version does not know: ingest is where
 * activities enter, so it refuses what it cannot name (the other way is platform's activityKindOf).
 */
export function activityKindName(kind: ActivityKind): ActivityKindName | undefined {
  return kind === ActivityKind.ACTIVITY_KIND_CALL ? 'call' : kind === ActivityKind.ACTIVITY_KIND_MEETING ? 'meeting' : undefined;
}

export function mediaKindOf(name: MediaKindName): MediaKind {
  return name === 'audio' ? MediaKind.MEDIA_KIND_AUDIO : MediaKind.MEDIA_KIND_TEXT;
}
