import { afterAll, describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { PERSUASION_DIALOG_CSV, PERSUASION_INFO_CSV, removeDatasets, writeDatasets } from '../testing/fixtures.js';
import { DONATION_PROMPT, loadPersuasion, majorityLabel, persuasionBaselines, persuasionCases, scorePersuasion } from './persuasionforgood.js';

afterAll(removeDatasets);

describe('persuasionCases', () => {
  const { cases, skipped } = persuasionCases(PERSUASION_DIALOG_CSV, PERSUASION_INFO_CSV, undefined);

  it('makes one activity per dialogue with a persuadee row, and skips and counts the others', () => {
    expect(cases.map((item) => [item.dialogueId, item.successful])).toEqual([
      ['d1', true],
      ['d2', false],
    ]);
    expect(skipped).toEqual({ total: 1, reasons: { 'no persuadee row (B4 = 1) in full_info.csv': 1 } });
  });

  it('orders by Turn then row, and joins consecutive sentences of one role in one turn', () => {
    const transcript = cases[0]!.input.transcript;
    expect(transcript.segments.map((s) => [s.speaker, s.text])).toEqual([
      ['Persuader', 'Hi there! Would you donate to Save the Children, today?'],
      ['Persuadee', 'Hello.'],
      ['Persuader', 'Great.'],
      ['Persuadee', 'Yes, I will donate.'],
    ]);
    expect(transcript.speakers).toEqual([
      { label: 'Persuader', role: SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE },
      { label: 'Persuadee', role: SpeakerRole.SPEAKER_ROLE_CONTACT },
    ]);
  });

  it('asks only for success: no criteria, the donation prompt', () => {
    expect(cases[0]!.input.team.criteriaGroups).toEqual([]);
    expect(cases[0]!.input.team.successPrompt).toBe(DONATION_PROMPT);
    expect(JSON.stringify(cases[0]!.input)).not.toContain('0.5');
  });

  it('stops after --limit usable dialogues', () => {
    expect(persuasionCases(PERSUASION_DIALOG_CSV, PERSUASION_INFO_CSV, 1).cases).toHaveLength(1);
  });
});

describe('PersuasionForGood figures and baselines', () => {
  const { cases } = persuasionCases(PERSUASION_DIALOG_CSV, PERSUASION_INFO_CSV, undefined);

  it('scores the success verdict, N/A counting as wrong', () => {
    const f = scorePersuasion(cases, [
      { verdicts: [], isSuccessful: true, summary: '' },
      { verdicts: [], isSuccessful: undefined, summary: '' },
    ]);
    expect(f).toMatchObject({ accuracy: 0.5, tp: 1, tn: 0, na: 1, naNegative: 1 });
  });

  it('measures the calibration of the stated success confidence, leaving N/A out', () => {
    const f = scorePersuasion(cases, [
      { verdicts: [], isSuccessful: false, successConfidence: 0.8, summary: '' },
      { verdicts: [], isSuccessful: undefined, successConfidence: 0, summary: '' },
    ]);
    expect(f.calibration).toMatchObject({ verdicts: 1, accuracy: 0, bins: [{ from: 0.8, count: 1, accuracy: 0 }] });
    expect(scorePersuasion(cases, [{ verdicts: [], isSuccessful: true, summary: '' }, { verdicts: [], isSuccessful: true, summary: '' }], 'baseline').calibration).toBeNull();
  });

  it('majority predicts the more frequent truth label, a tie counting as successful', () => {
    expect(majorityLabel(cases)).toBe(true);
    expect(majorityLabel([cases[1]!])).toBe(false);
    const [majority, minority] = persuasionBaselines([cases[1]!]);
    expect(majority!.name).toBe('always unsuccessful (majority)');
    expect(majority!.description).toContain('1 of 1');
    expect(minority!.name).toBe('always successful');
    expect(minority!.description).toContain('0 of 1');
  });

  it("keyword-overlap calls a dialogue successful when half the prompt's content words are in the persuadee's turns", () => {
    const keyword = persuasionBaselines(cases)[2]!;
    // Content words: contact, agrees, donate, save, children. d1's persuadee says "donate" only (1 of 5); d2 none.
    expect(cases.map((item) => keyword.predict(item).isSuccessful)).toEqual([false, false]);
  });
});

describe('loadPersuasion', () => {
  it('reads the two CSV files, or reports them missing', async () => {
    const loaded = await loadPersuasion(await writeDatasets(), undefined);
    expect('cases' in loaded && loaded.cases).toHaveLength(2);
    expect(await loadPersuasion(await writeDatasets(['persuasionforgood']), undefined)).toEqual({ missing: 'no persuasionforgood/full_dialog.csv and full_info.csv' });
  });
});
