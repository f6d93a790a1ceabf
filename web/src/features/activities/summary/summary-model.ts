// What both summary dialogs show, in the shape of GET /api/calls/summary/{callId} (the meeting
// summary answers the same shape), plus the pure helpers the dialogs share.
import type { GetCallSummaryApiResponse } from '../../../lib/api/gateway-api.generated';

export type SummaryData = GetCallSummaryApiResponse;
export type SummarySegment = SummaryData['segments'][number];
export type SummaryImprovement = SummaryData['improvements'][number];
export type SummaryEvaluation = NonNullable<SummaryData['evaluation']>;
export type SummaryVerdict = SummaryEvaluation['verdicts'][number];
export type SummaryEvidence = SummaryVerdict['evidence'][number];

type SpeakerRole = SummarySegment['role'];

const ROLE_LABELS: Record<SpeakerRole, string | null> = {
  representative: 'Representative',
  contact: 'Contact',
  unknown: null,
};

/** Labels that already say the role ("Representative 2", "REP", "Contact"), so the badge would only repeat it. */
const LABELS_SAYING_ROLE: Record<SpeakerRole, readonly string[]> = {
  representative: ['representative', 'rep'],
  contact: ['contact'],
  unknown: [],
};

/**
 * The role badge shown beside a speaker, or null when the role is unknown or the speaker's label
 * already says it: a transcript labelled "Representative:" shows "Representative" once, not twice.
 */
export function roleBadgeOf(speaker: string, role: SpeakerRole): string | null {
  const label = speaker
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();
  return LABELS_SAYING_ROLE[role].includes(label) ? null : ROLE_LABELS[role];
}

/** How many suggestions the Areas for Improvement hold (the footer's count). */
export function improvementCount(improvements: readonly SummaryImprovement[]): number {
  return improvements.reduce((total, group) => total + group.criteria.length, 0);
}

/** '1 improvement suggested', '3 improvements suggested'. */
export function improvementCountText(count: number): string {
  return `${count} ${count === 1 ? 'improvement' : 'improvements'} suggested`;
}

/** A share (0 to 1) as a whole percent: 0.92 reads '92%'. */
export const formatShare = (share: number): string => `${Math.round(share * 100)}%`;

/** Milliseconds from the start as m:ss, or h:mm:ss past the hour. */
export function formatOffset(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}

const TIMED_LINE = /^\[(?:(\d+):)?(\d+):(\d{1,2})\]\s*(.*)$/;
const SPOKEN_LINE = /^([^:]{1,80}):\s+(.*)$/;

/**
 * A meeting row's transcript ("[m:ss] Speaker: text" lines, the time and the speaker each
 * optional) as segments, so it can show at once while the analysed segments load.
 */
export function segmentsFromTranscript(transcript: string): SummarySegment[] {
  const segments: SummarySegment[] = [];
  for (const raw of transcript.split(/\r?\n/)) {
    let line = raw.trim();
    if (line === '') continue;
    let startMs: number | null = null;
    const timed = TIMED_LINE.exec(line);
    if (timed) {
      startMs = (Number(timed[1] ?? 0) * 3600 + Number(timed[2]) * 60 + Number(timed[3])) * 1000;
      line = timed[4] ?? '';
    }
    const spoken = SPOKEN_LINE.exec(line);
    segments.push({
      index: segments.length,
      speaker: spoken ? (spoken[1] ?? '').trim() : '',
      role: 'unknown',
      startMs,
      endMs: null,
      text: spoken ? (spoken[2] ?? '') : line,
    });
  }
  return segments;
}
