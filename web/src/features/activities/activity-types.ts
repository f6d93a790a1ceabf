/**
 * The rows of the activity lists (GET /api/calls/ and GET /api/meetings; spec part 2 §3 "Call",
 * "Meeting"), as the gateway's OpenAPI document describes them.
 */
import type { Call, Meeting } from '../../lib/api/gateway-api.generated';

export type ActivityCall = Call;
export type ActivityMeeting = Meeting;

/** processing until scored; failed when transcription or scoring could not finish */
export type ActivityStatus = Call['status'];
