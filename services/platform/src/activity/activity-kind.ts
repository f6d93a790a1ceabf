/** The activity kind as the contract spells it (proto enum) and as the services store it. */
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';

export type ActivityKindName = 'call' | 'meeting';

/** Ingest only sends calls and meetings; anything but a meeting is read as a call. */
export function activityKindName(kind: ActivityKind): ActivityKindName {
  return kind === ActivityKind.ACTIVITY_KIND_MEETING ? 'meeting' : 'call';
}

export function activityKindOf(name: ActivityKindName): ActivityKind {
  return name === 'meeting' ? ActivityKind.ACTIVITY_KIND_MEETING : ActivityKind.ACTIVITY_KIND_CALL;
}
