/**
 * Demo data that tells the truth: the offline evaluator (what the standalone product scores with)
 * reads the generated conversations and should find what the generator put in them, criterion by
 * criterion and for success. Measured on a few hundred conversations of every demo team as text,
 * and on recorded calls of every team as the default speech engine (the product's speech server,
 * Whisper) hears them, with the same bounds: a recording `make run` seeds should get the verdicts
 * its text would. A disagreement rate above the bounds means the playbooks' wording, the voices
 * the recordings are spoken in, the speech pipeline or the evaluator drifted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpeechEngine, loadTranscriptionConfig } from '@parlance/transcription/config';
import { overallWordErrorRate } from '@parlance/transcription/domain/word-error-rate';
import { createLimiter } from '@parlance/transcription/speech/transcribe-audio';
import { startWhisperServer, type WhisperServer } from '../../../test/support/whisper-server.js';
import { demoActivity, type DemoPlan } from '../src/domain/demo-conversations.js';
import {
  agreementByTeam,
  agreementOf,
  demoTeams,
  disagreements,
  hearRecordedCall,
  judgeAgainstTruth,
  recordedCallSample,
  textTranscript,
  type Agreement,
  type HeardCall,
} from './support/demo-truth.js';

const plan: DemoPlan = { calls: 540, meetings: 60, recordedCalls: 0, seed: 26, now: new Date('2026-11-23T12:00:00Z') };
/** Recorded calls heard per team: enough that one verdict in five may differ (rates above 0.75), and about two minutes on two cores. */
const RECORDED_PER_TEAM = 5;

/** The same bounds for text and for recordings. */
function expectAgreement(agreement: Agreement): void {
  expect(agreement.overall).toBeGreaterThan(0.9);
  expect(agreement.success).toBeGreaterThan(0.85);
  for (const [name, rate] of Object.entries(agreement.rates)) expect(rate, name).toBeGreaterThan(0.75);
}

describe('demo conversations read by the offline evaluator', () => {
  it('agree with the truth the generator kept, per criterion and for success', () => {
    const judged = Array.from({ length: plan.calls + plan.meetings }, (_, sequence) => {
      const activity = demoActivity(plan, demoTeams, sequence)!;
      return judgeAgainstTruth(activity, textTranscript(activity));
    });
    const agreement = agreementOf(judged);
    // The figures, for whoever changes the playbooks or the evaluator.
    process.stdout.write(`${JSON.stringify(agreement, null, 1)}\n`);
    expectAgreement(agreement);
  });
});

describe('demo recorded calls heard by the default speech engine', () => {
  let server: WhisperServer;
  let directory: string;

  beforeAll(async () => {
    [server, directory] = await Promise.all([startWhisperServer(), mkdtemp(join(tmpdir(), 'demo-calls-'))]);
  });

  afterAll(async () => {
    await server?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('get the verdicts their truth says, as their text does', { timeout: 600_000 }, async () => {
    // The transcription service as `make up` configures it against the speech server, roles told
    // as it tells them (TRANSCRIPTION_REPRESENTATIVE_CHANNEL unset).
    const config = loadTranscriptionConfig({ TRANSCRIPTION_SPEECH_URL: server.url, TRANSCRIPTION_SPEECH_MODEL: server.model });
    const deps = { engine: createSpeechEngine(config.speech), limiter: createLimiter(config.concurrency), representativeChannel: config.representativeChannel };
    const sample = recordedCallSample(RECORDED_PER_TEAM);
    // All at once: while one call is synthesized the speech server works on another.
    const heard: HeardCall[] = await Promise.all(sample.map((activity) => hearRecordedCall(deps, activity, directory)));

    const asText = sample.map((activity) => judgeAgainstTruth(activity, textTranscript(activity)));
    const asHeard = sample.map((activity, index) => judgeAgainstTruth(activity, heard[index]!.transcript));
    const [textAgreement, heardAgreement] = [agreementOf(asText), agreementOf(asHeard)];
    const [textByTeam, heardByTeam] = [agreementByTeam(asText), agreementByTeam(asHeard)];
    const wordErrors = overallWordErrorRate(heard.map((call) => call.wordErrors));
    const figures = {
      calls: sample.length,
      audio_s: Math.round(heard.reduce((sum, call) => sum + call.audioMs, 0) / 1000),
      wer: Number(wordErrors.wer.toFixed(3)),
      representative_right: heard.filter((call) => call.representativeRight).length,
      text: { overall: textAgreement.overall, success: textAgreement.success },
      heard: { overall: heardAgreement.overall, success: heardAgreement.success },
      // Per criterion, where what was heard and the text differ.
      rates: Object.fromEntries(
        Object.entries(heardAgreement.rates)
          .filter(([name, rate]) => rate !== textAgreement.rates[name])
          .map(([name, rate]) => [name, { text: textAgreement.rates[name], heard: rate }]),
      ),
      teams: Object.fromEntries(
        Object.keys(textByTeam).map((team) => [
          team,
          { text: { overall: textByTeam[team]!.overall, success: textByTeam[team]!.success }, heard: { overall: heardByTeam[team]!.overall, success: heardByTeam[team]!.success } },
        ]),
      ),
      // What each recording's verdicts got wrong, with how well it was heard.
      wrong: Object.fromEntries(
        asHeard
          .map((judged, index) => [`#${judged.activity.sequence} (wer ${heard[index]!.wordErrors.wer.toFixed(2)})`, disagreements(judged)] as const)
          .filter(([, wrong]) => wrong.length > 0),
      ),
    };
    process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`);

    expectAgreement(heardAgreement);
  });
});
