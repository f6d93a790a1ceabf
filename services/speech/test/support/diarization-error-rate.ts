/**
 * The diarization error rate (DER), as NIST's md-eval scores it, on 10 ms frames:
 *
 *   DER = (missed speech + false alarm + speaker confusion) / reference speech
 *
 * - missed speech: reference speech where the hypothesis has no speaker;
 * - false alarm: hypothesis speech where the reference has none;
 * - speaker confusion: both speak, but the hypothesis speaker is not the one mapped to the
 *   reference speaker. The mapping pairs each reference speaker with at most one hypothesis
 *   speaker so that the time they share is the largest (the optimal mapping; the speaker labels
 *   themselves mean nothing);
 * - a forgiveness collar: frames within 0.25 s of any reference turn's start or end are not
 *   scored (nobody can say to the frame when a voice starts).
 *
 * The reference turns never overlap here (the mixes have no overlapping speech), and neither do
 * the hypothesis segments of either method measured.
 */
export interface SpeakerSegment {
  startMs: number;
  endMs: number;
  speaker: string;
}

export interface DiarizationError {
  der: number;
  missedMs: number;
  falseAlarmMs: number;
  confusionMs: number;
  /** The reference speech scored (outside the collars). */
  scoredSpeechMs: number;
  /** How many speakers the hypothesis found. */
  hypothesisSpeakers: number;
}

const FRAME_MS = 10;
export const COLLAR_MS = 250;

function labelFrames(segments: readonly SpeakerSegment[], frames: number, ids: Map<string, number>): Int32Array {
  const labels = new Int32Array(frames).fill(-1);
  for (const segment of segments) {
    if (!ids.has(segment.speaker)) ids.set(segment.speaker, ids.size);
    const from = Math.max(0, Math.round(segment.startMs / FRAME_MS));
    const to = Math.min(frames, Math.round(segment.endMs / FRAME_MS));
    labels.fill(ids.get(segment.speaker)!, from, to);
  }
  return labels;
}

/** Every way to give each reference speaker a distinct hypothesis speaker or none, scored by shared time. */
function bestMapping(shared: number[][], hypothesisCount: number): number[] {
  let best: number[] = [];
  let bestScore = -1;
  const mapping: number[] = [];
  const used = new Set<number>();
  const search = (reference: number, score: number) => {
    if (reference === shared.length) {
      if (score > bestScore) [bestScore, best] = [score, [...mapping]];
      return;
    }
    for (let hypothesis = -1; hypothesis < hypothesisCount; hypothesis += 1) {
      if (hypothesis >= 0 && used.has(hypothesis)) continue;
      mapping.push(hypothesis);
      if (hypothesis >= 0) used.add(hypothesis);
      search(reference + 1, score + (hypothesis >= 0 ? shared[reference]![hypothesis]! : 0));
      mapping.pop();
      used.delete(hypothesis);
    }
  };
  search(0, 0);
  return best;
}

export function diarizationErrorRate(reference: readonly SpeakerSegment[], hypothesis: readonly SpeakerSegment[], durationMs: number): DiarizationError {
  const frames = Math.ceil(durationMs / FRAME_MS);
  const referenceIds = new Map<string, number>();
  const hypothesisIds = new Map<string, number>();
  const truth = labelFrames(reference, frames, referenceIds);
  const guess = labelFrames(hypothesis, frames, hypothesisIds);

  const scored = new Uint8Array(frames).fill(1);
  const collar = COLLAR_MS / FRAME_MS;
  for (const turn of reference) {
    for (const edge of [turn.startMs, turn.endMs]) {
      const at = Math.round(edge / FRAME_MS);
      scored.fill(0, Math.max(0, at - collar), Math.min(frames, at + collar));
    }
  }

  const shared = [...referenceIds.keys()].map(() => new Array<number>(hypothesisIds.size).fill(0));
  for (let frame = 0; frame < frames; frame += 1) {
    if (scored[frame] && truth[frame]! >= 0 && guess[frame]! >= 0) shared[truth[frame]!]![guess[frame]!]! += 1;
  }
  const mapping = bestMapping(shared, hypothesisIds.size);

  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  let speech = 0;
  for (let frame = 0; frame < frames; frame += 1) {
    if (!scored[frame]) continue;
    const said = truth[frame]!;
    const heard = guess[frame]!;
    if (said >= 0) speech += 1;
    if (said >= 0 && heard < 0) missed += 1;
    else if (said < 0 && heard >= 0) falseAlarm += 1;
    else if (said >= 0 && heard >= 0 && mapping[said] !== heard) confusion += 1;
  }
  return {
    der: speech === 0 ? 0 : (missed + falseAlarm + confusion) / speech,
    missedMs: missed * FRAME_MS,
    falseAlarmMs: falseAlarm * FRAME_MS,
    confusionMs: confusion * FRAME_MS,
    scoredSpeechMs: speech * FRAME_MS,
    hypothesisSpeakers: hypothesisIds.size,
  };
}

/** The errors of several recordings added up: the overall DER weights each by its speech. */
export function overallDiarizationErrorRate(results: readonly DiarizationError[]): DiarizationError {
  const sum = (pick: (result: DiarizationError) => number) => results.reduce((total, result) => total + pick(result), 0);
  const speech = sum((result) => result.scoredSpeechMs);
  const errors = sum((result) => result.missedMs + result.falseAlarmMs + result.confusionMs);
  return {
    der: speech === 0 ? 0 : errors / speech,
    missedMs: sum((result) => result.missedMs),
    falseAlarmMs: sum((result) => result.falseAlarmMs),
    confusionMs: sum((result) => result.confusionMs),
    scoredSpeechMs: speech,
    hypothesisSpeakers: Math.max(0, ...results.map((result) => result.hypothesisSpeakers)),
  };
}
