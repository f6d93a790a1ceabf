import { describe, expect, it } from 'vitest';
import { isPlausibleSpeakerName, readBracketedSpeaker, readChatLine, readSpeakerLabel } from './speaker-labels.js';

describe('isPlausibleSpeakerName', () => {
  it('accepts the names people and tools write', () => {
    for (const name of ['Anna', 'Anna Lopez', 'Dr. Alvarez', "Siobhán O'Neil", 'Mary-Jane Watson', 'Speaker 1', 'SPEAKER_00', 'Ben (Acme)', 'José García', '张伟', 'Q']) {
      expect(isPlausibleSpeakerName(name), name).toBe(true);
    }
  });

  it('refuses headings, numbers, prose and overlong labels', () => {
    for (const name of ['Note', 'notes', 'Action items', 'Subject', 'RE', 'Attendees', '10', '2024', '', 'However, she said', 'Why not?', 'He "quoted"', 'One two three four five', 'A'.repeat(41)]) {
      expect(isPlausibleSpeakerName(name), name).toBe(false);
    }
  });
});

describe('readSpeakerLabel', () => {
  it('splits a name and what they said', () => {
    expect(readSpeakerLabel('Anna Lopez: Hello there.')).toEqual({ speaker: 'Anna Lopez', text: 'Hello there.' });
    expect(readSpeakerLabel('Anna Lopez : Hello there.')).toEqual({ speaker: 'Anna Lopez', text: 'Hello there.' });
    expect(readSpeakerLabel('Anna:')).toEqual({ speaker: 'Anna', text: '' });
    expect(readSpeakerLabel('张伟：你好')).toEqual({ speaker: '张伟', text: '你好' });
  });

  it('reads Markdown bold names and list bullets', () => {
    expect(readSpeakerLabel('**Coach:** Ready?')).toEqual({ speaker: 'Coach', text: 'Ready?' });
    expect(readSpeakerLabel('**Coach**: Ready?')).toEqual({ speaker: 'Coach', text: 'Ready?' });
    expect(readSpeakerLabel('__Coach__: Ready?')).toEqual({ speaker: 'Coach', text: 'Ready?' });
    expect(readSpeakerLabel('- **Coach:** Ready?')).toEqual({ speaker: 'Coach', text: 'Ready?' });
    expect(readSpeakerLabel('- Coach: Ready?')).toEqual({ speaker: 'Coach', text: 'Ready?' });
  });

  it('does not take links, times or notes for speakers', () => {
    expect(readSpeakerLabel('https://example.com/deck')).toBeUndefined();
    expect(readSpeakerLabel('10:30 works for me')).toBeUndefined();
    expect(readSpeakerLabel('Meet at 10:30: bring the deck')).toBeUndefined();
    expect(readSpeakerLabel('Note: the busiest day is Monday.')).toBeUndefined();
    expect(readSpeakerLabel('Ratio 3:1 is fine')).toBeUndefined();
    expect(readSpeakerLabel(': nothing before the colon')).toBeUndefined();
  });
});

describe('readBracketedSpeaker', () => {
  it('reads a capitalised name in brackets before the words', () => {
    expect(readBracketedSpeaker('[Anna] Hi.')).toEqual({ speaker: 'Anna', text: 'Hi.' });
    expect(readBracketedSpeaker('[Ana de la Cruz] Hola.')).toEqual({ speaker: 'Ana de la Cruz', text: 'Hola.' });
  });

  it('leaves sound descriptions and bare brackets alone', () => {
    expect(readBracketedSpeaker('[Laughs] Sure.')).toBeUndefined();
    expect(readBracketedSpeaker('[MUSIC] Welcome back.')).toBeUndefined();
    expect(readBracketedSpeaker('[door closes] Sorry.')).toBeUndefined();
    expect(readBracketedSpeaker('[Anna]')).toBeUndefined();
  });
});

describe('readChatLine', () => {
  it("reads the sender of Zoom's chat lines", () => {
    expect(readChatLine('From Anna Lopez to Everyone: hi all')).toEqual({ speaker: 'Anna Lopez', text: 'hi all' });
    expect(readChatLine('From Anna Lopez to Ben Carter(Direct Message): see you')).toEqual({ speaker: 'Anna Lopez', text: 'see you' });
    expect(readChatLine('From  Anna Lopez : hi')).toEqual({ speaker: 'Anna Lopez', text: 'hi' });
    expect(readChatLine('Anna Lopez: hi')).toBeUndefined();
  });
});
