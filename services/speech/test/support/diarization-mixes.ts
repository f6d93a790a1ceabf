/**
 * The recordings diarization is measured on: two-voice conversations mixed from real recordings,
 * in two sets that share no pair of voices. The calibration set is where the server's thresholds
 * were chosen; the held-out set was not looked at while choosing them, and is what the test bounds.
 * Plus one voice alone (it must come back as one speaker) and three voices (three speakers).
 */
import { loadVoice, VOICE_SOURCES, type RecordedVoice } from './recorded-voices.js';
import { mixConversation, singleVoice, type VoiceMix } from './voice-mixes.js';

export const CALIBRATION_PAIRS: [string, string][] = [
  ['ve9qrp', 'htsB'],
  ['librivox', 'vk5qi'],
  ['harvardMan', 'cqRef'],
];

export const HELD_OUT_PAIRS: [string, string][] = [
  ['ve9qrp', 'librivox'],
  ['vk5qi', 'htsA'],
  ['vk5dgr', 'harvardWoman'],
  ['htsA', 'htsB'],
];

export const THREE_VOICES = ['ve9qrp', 'librivox', 'htsA'];

export interface DiarizationRecordings {
  calibration: VoiceMix[];
  heldOut: VoiceMix[];
  single: VoiceMix[];
  three: VoiceMix;
}

export async function loadDiarizationRecordings(): Promise<DiarizationRecordings> {
  const voices = new Map<string, RecordedVoice>();
  await Promise.all(Object.keys(VOICE_SOURCES).map(async (name) => voices.set(name, await loadVoice(name))));
  const voice = (name: string) => voices.get(name)!;
  const pair = ([first, second]: [string, string], seed: number) => mixConversation(`${first}+${second}`, [voice(first), voice(second)], { seed });
  return {
    calibration: CALIBRATION_PAIRS.map((names, index) => pair(names, 101 + index)),
    heldOut: HELD_OUT_PAIRS.map((names, index) => pair(names, 201 + index)),
    single: [singleVoice('ve9qrp alone', voice('ve9qrp')), singleVoice('librivox alone', voice('librivox'))],
    three: mixConversation(THREE_VOICES.join('+'), THREE_VOICES.map(voice), { seed: 301, backChannels: 0 }),
  };
}
