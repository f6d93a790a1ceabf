import { describe, expect, it } from 'vitest';
import { SpeakerRole } from '@parlance/proto/parlance/transcription/v1/transcription';
import { sampleTranscript } from '../../../test/support/evaluation-input.js';
import { evidenceOf, locateQuote, locateQuotes } from './quoted-evidence.js';

const transcript = sampleTranscript();

describe('locateQuote', () => {
  it('keeps a quote that is an exact substring of the segment it names', () => {
    expect(locateQuote(transcript, { segmentIndex: 0, quote: 'welcome to Acme' })).toEqual({ segmentIndex: 0, quote: 'welcome to Acme' });
  });

  it('forgives different whitespace, answering with the segment’s own characters', () => {
    expect(locateQuote(transcript, { segmentIndex: 2, quote: 'What do you need\nthe analytics for?' })).toEqual({ segmentIndex: 2, quote: 'What do you   need the analytics for?' });
  });

  it('trims quotation marks and punctuation around the quote', () => {
    expect(locateQuote(transcript, { segmentIndex: 5, quote: '“Tuesday works.”' })).toEqual({ segmentIndex: 5, quote: 'Tuesday works.' });
    expect(locateQuote(transcript, { segmentIndex: 4, quote: '"…book a demo for Tuesday at ten..."' })).toEqual({ segmentIndex: 4, quote: 'book a demo for Tuesday at ten' });
  });

  it('corrects the index of a quote that is word for word in another segment, nearest first', () => {
    expect(locateQuote(transcript, { segmentIndex: 1, quote: 'We need weekly reports' })).toEqual({ segmentIndex: 3, quote: 'We need weekly reports' });
    expect(locateQuote(transcript, { segmentIndex: 99, quote: 'See you then' })).toEqual({ segmentIndex: 5, quote: 'See you then' });
  });

  it('drops a paraphrase, a change of case, an ellipsis inside, and an invented quote', () => {
    for (const quote of ['We want weekly reports', 'hello, welcome to acme', 'Hello, welcome ... Anna speaking', 'We offer a 30% discount', '  ']) {
      expect(locateQuote(transcript, { segmentIndex: 0, quote })).toBeUndefined();
    }
  });
});

describe('locateQuotes and evidenceOf', () => {
  it('counts the dropped quotes, removes repeats, and gives evidence the segment’s speaker, role and time', () => {
    const tally = { dropped: 0 };
    const located = locateQuotes(
      transcript,
      [
        { segmentIndex: 3, quote: 'weekly reports' },
        { segmentIndex: 3, quote: ' weekly reports ' },
        { segmentIndex: 0, quote: 'We guarantee the lowest price' },
      ],
      tally,
    );
    expect(tally.dropped).toBe(1);
    expect(evidenceOf(transcript, located)).toEqual([{ quote: 'weekly reports', segmentIndex: 3, speaker: 'John', role: SpeakerRole.SPEAKER_ROLE_CONTACT, startMs: 14_000 }]);
  });

  it('leaves startMs unset for a transcript without times', () => {
    const untimed = sampleTranscript([{ speaker: 'Anna Lee', text: 'Welcome to Acme.', words: [] }]);
    expect(evidenceOf(untimed, [{ segmentIndex: 0, quote: 'Welcome' }])[0]).not.toHaveProperty('startMs');
  });
});
