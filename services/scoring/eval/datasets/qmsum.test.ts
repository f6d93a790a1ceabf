import { afterAll, describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { removeDatasets, writeDatasets } from '../testing/fixtures.js';
import { leadSummary, loadQmsum, qmsumBaselines, scoreQmsum } from './qmsum.js';

afterAll(removeDatasets);

async function load(limit?: number) {
  const loaded = await loadQmsum(await writeDatasets(), limit);
  if ('missing' in loaded) throw new Error(loaded.missing);
  return loaded;
}

describe('loadQmsum', () => {
  it('makes one meeting per line with a general summary, and skips and counts the others', async () => {
    const loaded = await load();
    expect(loaded.cases.map((item) => [item.input.activityId, item.reference])).toEqual([
      ['qmsum/test-1', 'The team agreed the remote would be yellow.'],
      ['qmsum/test-3', 'Yellow it is.'],
    ]);
    expect(loaded.skipped).toEqual({ total: 1, reasons: { 'no general_query_list[0].answer': 1 } });
  });

  it('keeps speaker labels and text as given; the first speaker is the representative', async () => {
    const [item] = (await load()).cases;
    expect(item!.input.kind).toBe('meeting');
    expect(item!.input.transcript.speakers).toEqual([
      { label: 'Project Manager', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
      { label: 'Marketing', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
    ]);
    expect(item!.input.transcript.segments[0]!.text).toBe('Okay , the remote {vocalsound} will be yellow .');
    expect(item!.input.team).toMatchObject({ criteriaGroups: [], successPrompt: '' });
    expect(JSON.stringify(item!.input)).not.toContain('agreed the remote');
  });

  it('stops after --limit meetings, and reports a missing file', async () => {
    expect((await load(1)).cases).toHaveLength(1);
    expect(await loadQmsum(await writeDatasets(['qmsum']), undefined)).toEqual({ missing: 'no qmsum/test.jsonl' });
  });
});

describe('QMSum figures', () => {
  it('LEAD takes the first N transcript words, N = the reference length', async () => {
    const [first, second] = (await load()).cases;
    expect(leadSummary(first!)).toBe('okay the remote vocalsound will be yellow yellow');
    expect(leadSummary(second!)).toBe('okay the remote');
  });

  it('averages ROUGE over meetings and reports summary length', async () => {
    const cases = (await load()).cases;
    const figures = scoreQmsum(cases, [
      { verdicts: [], isSuccessful: undefined, summary: 'The team agreed the remote would be yellow.' },
      { verdicts: [], isSuccessful: undefined, summary: '' },
    ]);
    expect(figures).toEqual({ meetings: 2, rouge1: 50, rouge2: 50, rougeL: 50, meanSummaryWords: 4, emptySummaries: 1 });
  });

  it('scores LEAD like any summary', async () => {
    const cases = (await load()).cases;
    const figures = scoreQmsum(cases, cases.map((item) => qmsumBaselines[0]!.predict(item)));
    expect(figures.rouge1).toBeGreaterThan(0);
    expect(figures.meanSummaryWords).toBe(5.5);
  });
});
