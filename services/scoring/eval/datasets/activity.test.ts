import { describe, expect, it } from 'vitest';
import { ActivityKind } from '@parlance/proto/parlance/ingest/v1/ingest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { buildTranscript, equalWeights, weightedGroups } from './activity.js';

describe('equalWeights', () => {
  it('shares 10 equally to two decimals, the remainder on the last', () => {
    expect(equalWeights(3)).toEqual([3.33, 3.33, 3.34]);
    expect(equalWeights(7)).toEqual([1.43, 1.43, 1.43, 1.43, 1.43, 1.43, 1.42]);
    expect(equalWeights(1)).toEqual([10]);
    expect(equalWeights(0)).toEqual([]);
  });

  it('always totals exactly 10 in hundredths, none negative', () => {
    for (let count = 1; count <= 120; count += 1) {
      const weights = equalWeights(count);
      expect(weights.reduce((sum, weight) => sum + Math.round(weight * 100), 0)).toBe(1000);
      expect(Math.min(...weights)).toBeGreaterThanOrEqual(0);
    }
  });

  it('spreads the weights over every group in order', () => {
    const groups = weightedGroups([
      { id: 'a', name: 'A', criteria: [{ id: '1', name: '1', prompt: 'p' }] },
      { id: 'b', name: 'B', criteria: [{ id: '2', name: '2', prompt: 'p' }, { id: '3', name: '3', prompt: 'p' }] },
    ]);
    expect(groups.map((g) => g.criteria.map((c) => c.weight))).toEqual([[3.33], [3.33, 3.34]]);
  });
});

describe('buildTranscript', () => {
  it('lists each speaker once, in order of first appearance, and leaves times and words out', () => {
    const transcript = buildTranscript('x', 'meeting', [
      { speaker: 'B', role: SpeakerRole.SPEAKER_ROLE_CONTACT, text: 'one' },
      { speaker: 'A', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE, text: 'two' },
      { speaker: 'B', role: SpeakerRole.SPEAKER_ROLE_CONTACT, text: 'three' },
    ], 'test');
    expect(transcript.kind).toBe(ActivityKind.ACTIVITY_KIND_MEETING);
    expect(transcript.speakers.map((s) => s.label)).toEqual(['B', 'A']);
    expect(transcript.segments[0]).toEqual({ speaker: 'B', text: 'one', words: [] });
    expect(transcript.durationMs).toBe(0);
  });
});
