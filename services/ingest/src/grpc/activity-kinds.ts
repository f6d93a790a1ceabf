/** The activity kind as the contract spells it (proto enum) and as ingest stores it. */
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import type { ActivityKindName } from '../db/schema.js';

/** Undefined for ACTIVITY_KIND_UNSPECIFIED or a value this version does not know. */
export function activityKindName(kind: ActivityKind): ActivityKindName | undefined {
  return kind === ActivityKind.ACTIVITY_KIND_CALL ? 'call' : kind === ActivityKind.ACTIVITY_KIND_MEETING ? 'meeting' : undefined;
}

export function activityKindOf(name: ActivityKindName): ActivityKind {
  return name === 'call' ? ActivityKind.ACTIVITY_KIND_CALL : ActivityKind.ACTIVITY_KIND_MEETING;
}
