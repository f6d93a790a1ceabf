import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTextTranscript, TEXT_TRANSCRIPT_MESSAGES, UNKNOWN_SPEAKER } from './text-transcript.js';

const fixture = (name: string) => readFileSync(new URL(`../../test/fixtures/transcripts/${name}`, import.meta.url), 'utf8');
const lines = (...text: string[]) => text.join('\n');

describe('parseTextTranscript: speaker lines', () => {
  it('reads a sales call, joining continuation lines and keeping notes, times and links as words', () => {
    expect(parseTextTranscript(fixture('sales-call.txt'), 'sales-call.txt')).toEqual({
      format: 'speaker-lines',
      segments: [
        { speaker: 'Rep', text: 'Thanks for taking the call, Dr. Alvarez. How many clinics are you running now?' },
        { speaker: 'Dr. Alvarez', text: 'Four, and a fifth opens in June. We are stretched on the front desk side.' },
        { speaker: 'Rep', text: 'Understood. What does a typical morning look like for reception?' },
        { speaker: 'Dr. Alvarez', text: 'Phones from 7:45 onwards. At 10:30 it calms down a little. Note: the busiest day is Monday.' },
        { speaker: 'Rep', text: 'Would an automated reminder service help with no-shows? We see about a thirty percent drop on average.' },
        { speaker: 'Dr. Alvarez', text: "It might. Send me the case study from https://example.com/cases and I'll read it." },
      ],
      speakers: ['Rep', 'Dr. Alvarez'],
      warnings: ['The first line of sales-call.txt came before any speaker and was left out.'],
    });
  });

  it('reads Markdown notes with bold names and bullets', () => {
    const parsed = parseTextTranscript(fixture('coaching-session.md'), 'coaching-session.md');
    expect(parsed.format).toBe('speaker-lines');
    expect(parsed.segments).toEqual([
      { speaker: 'Coach', text: "Let's role-play the pricing objection. I'll be the buyer." },
      { speaker: 'Trainee', text: 'Okay, ready.' },
      { speaker: 'Coach', text: 'Honestly, your competitor is twenty percent cheaper.' },
      { speaker: 'Trainee', text: 'I hear you. Can I ask what is included in their quote?' },
      { speaker: 'Coach', text: 'Just the software licences.' },
      { speaker: 'Trainee', text: 'Then let me walk you through what our onboarding covers.' },
    ]);
    expect(parsed.speakers).toEqual(['Coach', 'Trainee']);
  });

  it('keeps the speaker across blank lines and a name alone on its line', () => {
    const interview = lines('Interviewer:', 'Tell me about your last role.', '', 'Candidate: I led a team of six.', '', 'We shipped twice a month.', '', 'Interviewer: What went wrong?', 'Candidate: Testing was manual.');
    expect(parseTextTranscript(interview)).toEqual({
      format: 'speaker-lines',
      segments: [
        { speaker: 'Interviewer', text: 'Tell me about your last role.' },
        { speaker: 'Candidate', text: 'I led a team of six. We shipped twice a month.' },
        { speaker: 'Interviewer', text: 'What went wrong?' },
        { speaker: 'Candidate', text: 'Testing was manual.' },
      ],
      speakers: ['Interviewer', 'Candidate'],
      warnings: [],
    });
  });

  it('reads a short two-line exchange', () => {
    expect(parseTextTranscript('Anna: Hi Ben.\nBen: Hi Anna.').segments).toEqual([
      { speaker: 'Anna', text: 'Hi Ben.' },
      { speaker: 'Ben', text: 'Hi Anna.' },
    ]);
  });

  it('does not take prose with a colon or two for a dialogue', () => {
    const memo = lines('Quarterly plan for the support team.', 'We want faster first replies.', '', 'First point: hire two agents.', 'Second point: publish the SSO article.');
    const parsed = parseTextTranscript(memo, 'memo.txt');
    expect(parsed.format).toBe('plain');
    expect(parsed.segments).toEqual([
      { speaker: UNKNOWN_SPEAKER, text: 'Quarterly plan for the support team. We want faster first replies.' },
      { speaker: UNKNOWN_SPEAKER, text: 'First point: hire two agents. Second point: publish the SSO article.' },
    ]);
    expect(parsed.warnings).toEqual(['No speakers found in memo.txt: the whole text is treated as one speaker.']);
  });

  it('reads a chat whose turns run over lists and paragraphs as a dialogue, since its speakers keep coming back', () => {
    const chat = lines(
      'Agent: Hello, how can I help?',
      'Customer: I need to move my appointment.',
      'Agent: Here are the openings this week.',
      '',
      '- Tuesday morning, with the practice nurse',
      '- Wednesday afternoon, with the doctor',
      '- Friday morning, with either',
      '',
      'Each of them lasts twenty minutes.',
      'Please tell me which one suits you.',
      'Customer: Wednesday afternoon.',
      'Agent: Done. You will get a text message to confirm it.',
      'It also has a link to cancel.',
      '',
      'Anything else I can help with?',
      'Customer: No, thank you.',
    );
    const parsed = parseTextTranscript(chat, 'chat.txt');
    expect(parsed.format).toBe('speaker-lines');
    expect(parsed.speakers).toEqual(['Agent', 'Customer']);
    expect(parsed.segments).toHaveLength(6);
    expect(parsed.segments[2]).toEqual({
      speaker: 'Agent',
      text: 'Here are the openings this week. - Tuesday morning, with the practice nurse - Wednesday afternoon, with the doctor - Friday morning, with either Each of them lasts twenty minutes. Please tell me which one suits you.',
    });
  });

  it('does not take a memo whose labels never come back for a dialogue', () => {
    const memo = lines('Plans for the week.', 'Monday: call the bank.', 'It may take a while.', 'Tuesday: visit the office.', 'Bring the papers.', 'Then lunch.', 'Wednesday: rest.', 'Read a book.', 'Walk.');
    expect(parseTextTranscript(memo).format).toBe('plain');
  });

  it('does not take meeting notes with headings for speakers', () => {
    const notes = lines('Subject: Renewal', 'Date: 3 May', 'Attendees: Anna, Ben', 'Note: send the quote by Friday.', 'Action items: Anna to call legal.');
    const parsed = parseTextTranscript(notes, 'notes.txt');
    expect(parsed.format).toBe('plain');
    expect(parsed.speakers).toEqual([UNKNOWN_SPEAKER]);
  });

  it('reads full-width colons in Chinese transcripts', () => {
    expect(parseTextTranscript('张伟：你好，今天我们讨论价格。\n李娜：好的。\n张伟：先看报价。').segments).toEqual([
      { speaker: '张伟', text: '你好，今天我们讨论价格。' },
      { speaker: '李娜', text: '好的。' },
      { speaker: '张伟', text: '先看报价。' },
    ]);
  });
});

describe('parseTextTranscript: timestamped lines', () => {
  it("reads Zoom's chat-style lines, including the \"From … to Everyone\" form, with each end at the next start", () => {
    expect(parseTextTranscript(fixture('zoom-chat.txt'), 'zoom-chat.txt')).toEqual({
      format: 'timestamped-lines',
      segments: [
        { speaker: 'Hannah Berg', startMs: 4_000, endMs: 31_000, text: "Welcome everyone, we'll start in a minute." },
        { speaker: 'Marcus Lee', startMs: 31_000, endMs: 62_000, text: 'Thanks! Is the deck shared somewhere?' },
        { speaker: 'Hannah Berg', startMs: 62_000, endMs: 100_000, text: 'Yes, the link is in the calendar invite: https://example.com/deck' },
        { speaker: 'Priya Shah', startMs: 100_000, endMs: 135_000, text: 'Joining from the train, audio may drop.' },
        { speaker: 'Marcus Lee', startMs: 135_000, text: 'No problem.' },
      ],
      speakers: ['Hannah Berg', 'Marcus Lee', 'Priya Shah'],
      warnings: [],
    });
  });

  it('reads bracketed, parenthesised and bare stamps, past the hour', () => {
    const text = lines('[00:00:05] Anna: Shall we start?', '(00:12) Ben: Yes.', '00:00:20 - Anna: Great.', 'Then the agenda.', '[1:02:03] Ben: Thanks, bye.');
    expect(parseTextTranscript(text)).toEqual({
      format: 'timestamped-lines',
      segments: [
        { speaker: 'Anna', startMs: 5_000, endMs: 12_000, text: 'Shall we start?' },
        { speaker: 'Ben', startMs: 12_000, endMs: 20_000, text: 'Yes.' },
        { speaker: 'Anna', startMs: 20_000, endMs: 3_723_000, text: 'Great. Then the agenda.' },
        { speaker: 'Ben', startMs: 3_723_000, text: 'Thanks, bye.' },
      ],
      speakers: ['Anna', 'Ben'],
      warnings: [],
    });
  });

  it('takes both ends from a bracketed range', () => {
    expect(parseTextTranscript('[00:00:01.5 - 00:00:04] Anna: Hello.\n[00:00:04 --> 00:00:06] Ben: Hi.').segments).toEqual([
      { speaker: 'Anna', startMs: 1_500, endMs: 4_000, text: 'Hello.' },
      { speaker: 'Ben', startMs: 4_000, endMs: 6_000, text: 'Hi.' },
    ]);
  });

  it('keeps consecutive stamped lines of one speaker apart, each with its own time', () => {
    expect(parseTextTranscript('[00:01] Anna: One.\n[00:05] Anna: Two.\n[00:09] Ben: Three.').segments).toEqual([
      { speaker: 'Anna', startMs: 1_000, endMs: 5_000, text: 'One.' },
      { speaker: 'Anna', startMs: 5_000, endMs: 9_000, text: 'Two.' },
      { speaker: 'Ben', startMs: 9_000, text: 'Three.' },
    ]);
  });

  it('gives an unlabelled stamped line to the speaker before it', () => {
    expect(parseTextTranscript('[00:01] Anna: One.\n[00:05] and two.\n[00:09] Ben: Three.').segments).toEqual([
      { speaker: 'Anna', startMs: 1_000, endMs: 5_000, text: 'One.' },
      { speaker: 'Anna', startMs: 5_000, endMs: 9_000, text: 'and two.' },
      { speaker: 'Ben', startMs: 9_000, text: 'Three.' },
    ]);
  });

  it('reads Otter-style name and time headers above the words', () => {
    expect(parseTextTranscript(fixture('otter-export.txt'), 'otter-export.txt')).toEqual({
      format: 'timestamped-lines',
      segments: [
        { speaker: 'Kenji Watanabe', startMs: 0, endMs: 9_000, text: 'Alright, recording is on. This is the weekly support sync.' },
        { speaker: 'Lucia Romero', startMs: 9_000, endMs: 75_000, text: 'Thanks Kenji. Ticket volume was up twelve percent, mostly password resets after the SSO change.' },
        { speaker: 'Kenji Watanabe', startMs: 75_000, endMs: 3_750_000, text: 'Can we add a help article for that?' },
        { speaker: 'Lucia Romero', startMs: 3_750_000, text: "Already drafted. I'll publish it today." },
      ],
      speakers: ['Kenji Watanabe', 'Lucia Romero'],
      warnings: [],
    });
  });

  it("reads Zoom's web transcript headers with the name in brackets", () => {
    expect(parseTextTranscript('[Anna Lopez] 00:00:02\nHello all.\n\n[Ben Carter] 00:00:07\nHi Anna.').segments).toEqual([
      { speaker: 'Anna Lopez', startMs: 2_000, endMs: 7_000, text: 'Hello all.' },
      { speaker: 'Ben Carter', startMs: 7_000, text: 'Hi Anna.' },
    ]);
  });

  it('reads stamps without speakers as one unknown speaker, with a warning', () => {
    expect(parseTextTranscript('0:00\nhello and welcome back\n0:04\nto the product update\nfor April\n1:00:02\nthanks for watching', 'update.txt')).toEqual({
      format: 'timestamped-lines',
      segments: [
        { speaker: UNKNOWN_SPEAKER, startMs: 0, endMs: 4_000, text: 'hello and welcome back' },
        { speaker: UNKNOWN_SPEAKER, startMs: 4_000, endMs: 3_602_000, text: 'to the product update for April' },
        { speaker: UNKNOWN_SPEAKER, startMs: 3_602_000, text: 'thanks for watching' },
      ],
      speakers: [UNKNOWN_SPEAKER],
      warnings: ['No speakers found in update.txt: the whole text is treated as one speaker.'],
    });
  });

  it('keeps an out-of-range time as words', () => {
    expect(parseTextTranscript('[00:01] Anna: Hi.\n[00:99] Ben: Hello.\n[00:05] Ben: Bye.').segments).toEqual([
      { speaker: 'Anna', startMs: 1_000, endMs: 5_000, text: 'Hi. [00:99] Ben: Hello.' },
      { speaker: 'Ben', startMs: 5_000, text: 'Bye.' },
    ]);
  });
});

describe('parseTextTranscript: WebVTT', () => {
  it('reads voice tags, skips NOTE and STYLE blocks and identifiers, and strips other markup', () => {
    expect(parseTextTranscript(fixture('teams-meeting.vtt'), 'teams-meeting.vtt')).toEqual({
      format: 'webvtt',
      segments: [
        { speaker: 'Priya Nair', startMs: 3_000, endMs: 7_500, text: "Let's get going. First item is the onboarding backlog." },
        { speaker: 'Tomás Ibáñez', startMs: 8_000, endMs: 12_250, text: 'We cleared forty tickets last week, but twelve are still waiting on legal.' },
        { speaker: 'Priya Nair', startMs: 12_500, endMs: 15_000, text: 'Which contracts are those?' },
        { speaker: 'Tomás Ibáñez', startMs: 15_200, endMs: 19_900, text: 'Mostly the enterprise renewals & two pilots.' },
      ],
      speakers: ['Priya Nair', 'Tomás Ibáñez'],
      warnings: [],
    });
  });

  it('reads minute-only timings, two voices in one cue, and a cue without a voice as the same speaker going on', () => {
    const vtt = lines(
      'WEBVTT - captions',
      '',
      '00:01.000 --> 00:03.000',
      '<v Anna>Ready?</v> <v Ben>Ready.</v>',
      '',
      '00:03.500 --> 00:05.000',
      'Then let us begin, if a < b.',
    );
    expect(parseTextTranscript(vtt).segments).toEqual([
      { speaker: 'Anna', startMs: 1_000, endMs: 3_000, text: 'Ready?' },
      { speaker: 'Ben', startMs: 1_000, endMs: 3_000, text: 'Ready.' },
      { speaker: 'Ben', startMs: 3_500, endMs: 5_000, text: 'Then let us begin, if a < b.' },
    ]);
  });

  it('reads a cue that follows the header without a blank line', () => {
    expect(parseTextTranscript('WEBVTT\n00:00:01.000 --> 00:00:02.000\n<v Anna>Hi.').segments).toEqual([{ speaker: 'Anna', startMs: 1_000, endMs: 2_000, text: 'Hi.' }]);
  });

  it('keeps the words of cues whose timing cannot be read, with one warning', () => {
    const vtt = lines(
      'WEBVTT',
      '',
      '00:00:01.000 --> 00:00:02.000',
      '<v Anna>One.',
      '',
      '00:00:02.000 -> 00:00:03.000',
      '<v Ben>Two.',
      '',
      '00:00:03.000 --> 00:00:0x.000',
      '<v Ben>Three.',
      '',
      '00:00:04.000 --> 00:00:05.000',
      '<v Anna>Four.',
    );
    expect(parseTextTranscript(vtt, 'standup.vtt')).toEqual({
      format: 'webvtt',
      segments: [
        { speaker: 'Anna', startMs: 1_000, endMs: 2_000, text: 'One.' },
        { speaker: 'Ben', text: 'Two. Three.' },
        { speaker: 'Anna', startMs: 4_000, endMs: 5_000, text: 'Four.' },
      ],
      speakers: ['Anna', 'Ben'],
      warnings: ['2 timing lines in standup.vtt could not be read; the text under them is kept without times.'],
    });
  });

  it('reads captions with no speakers as one unknown speaker, with a warning', () => {
    const vtt = 'WEBVTT\nKind: captions\nLanguage: en\n\n00:00:00.000 --> 00:00:02.000\nwelcome to the demo\n\n00:00:02.000 --> 00:00:04.000\n<c>today</c> we look at reports';
    expect(parseTextTranscript(vtt, 'demo.vtt')).toEqual({
      format: 'webvtt',
      segments: [
        { speaker: UNKNOWN_SPEAKER, startMs: 0, endMs: 2_000, text: 'welcome to the demo' },
        { speaker: UNKNOWN_SPEAKER, startMs: 2_000, endMs: 4_000, text: 'today we look at reports' },
      ],
      speakers: [UNKNOWN_SPEAKER],
      warnings: ['No speakers found in demo.vtt: the whole text is treated as one speaker.'],
    });
  });

  it('gives no segments and an empty warning for a header alone', () => {
    expect(parseTextTranscript('WEBVTT\n\nNOTE nothing was said\n', 'silent.vtt')).toEqual({ format: 'webvtt', segments: [], speakers: [], warnings: ['The transcript silent.vtt is empty.'] });
  });
});

describe('parseTextTranscript: Zoom recording transcripts', () => {
  it('reports a WebVTT file whose cues start with "Name:" as Zoom, past the hour', () => {
    expect(parseTextTranscript(fixture('zoom-recording.vtt'), 'GMT20240314-100203_Recording.transcript.vtt')).toEqual({
      format: 'zoom',
      segments: [
        { speaker: 'Maya Okafor', startMs: 2_140, endMs: 6_020, text: 'Good morning, Daniel. Thanks for making time for this today.' },
        { speaker: 'Daniel Brandt', startMs: 6_500, endMs: 9_870, text: 'Morning, Maya. Happy to. I have about thirty minutes.' },
        { speaker: 'Maya Okafor', startMs: 10_120, endMs: 15_400, text: "Perfect. I'd like to start with how your dispatch team handles route changes at the moment." },
        { speaker: 'Daniel Brandt', startMs: 15_900, endMs: 21_330, text: 'Mostly spreadsheets, honestly. Someone updates the sheet and then calls the drivers.' },
        { speaker: 'Maya Okafor', startMs: 3_598_000, endMs: 3_603_250, text: 'So the next step is a trial with two of your depots, starting on the first of the month.' },
        { speaker: 'Daniel Brandt', startMs: 3_603_800, endMs: 3_605_100, text: 'Sounds good. Send me the paperwork.' },
      ],
      speakers: ['Maya Okafor', 'Daniel Brandt'],
      warnings: [],
    });
  });

  it('reports plain WebVTT when a "Name:" prefix is the exception', () => {
    const vtt = lines('WEBVTT', '', '00:00:01.000 --> 00:00:02.000', 'Keep this in mind: prices change.', '', '00:00:02.000 --> 00:00:03.000', 'And so on.', '', '00:00:03.000 --> 00:00:04.000', 'The end.');
    const parsed = parseTextTranscript(vtt);
    expect(parsed.format).toBe('webvtt');
    expect(parsed.segments.map((segment) => segment.text)).toEqual(['Keep this in mind: prices change.', 'And so on.', 'The end.']);
    expect(parsed.speakers).toEqual([UNKNOWN_SPEAKER]);
  });
});

describe('parseTextTranscript: SRT', () => {
  it('reads name prefixes, dialogue dashes, markup and sound descriptions from a CRLF file', () => {
    expect(parseTextTranscript(fixture('support-call.srt'), 'support-call.srt')).toEqual({
      format: 'srt',
      segments: [
        { speaker: 'Agent', startMs: 1_000, endMs: 3_500, text: 'Thank you for calling Harbor Telecom, this is Leo.' },
        { speaker: 'Customer', startMs: 3_900, endMs: 7_200, text: 'Hi Leo, my internet has been dropping every evening since Tuesday.' },
        { speaker: 'Agent', startMs: 7_600, endMs: 9_000, text: 'I am sorry to hear that.' },
        { speaker: 'Agent', startMs: 9_400, endMs: 12_800, text: 'Let me pull up your account.' },
        { speaker: 'Agent', startMs: 13_100, endMs: 15_000, text: 'Can you restart the router?' },
        { speaker: 'Customer', startMs: 13_100, endMs: 15_000, text: 'Sure, one moment.' },
        { speaker: 'Customer', startMs: 15_500, endMs: 17_250, text: '[Laughs] It is blinking green now.' },
      ],
      speakers: ['Agent', 'Customer'],
      warnings: [],
    });
  });

  it('reads bracketed names, cues missing their blank line, and a blank line inside cue text', () => {
    const srt = lines(
      '1',
      '00:00:01,000 --> 00:00:02,000',
      '[Anna] Morning.',
      '2',
      '00:00:02,500 --> 00:00:04,000',
      '[Ben] Morning, Anna.',
      '',
      'Coffee?',
      '',
      '3',
      '00:00:04,000 --> 00:00:05,000',
      '{\\an8}[Anna] Please.',
    );
    expect(parseTextTranscript(srt).segments).toEqual([
      { speaker: 'Anna', startMs: 1_000, endMs: 2_000, text: 'Morning.' },
      { speaker: 'Ben', startMs: 2_500, endMs: 4_000, text: 'Morning, Anna. Coffee?' },
      { speaker: 'Anna', startMs: 4_000, endMs: 5_000, text: 'Please.' },
    ]);
  });

  it('is told by its timing lines even when named .txt, and by the name only between SRT and WebVTT', () => {
    const cues = '1\n00:00:01,000 --> 00:00:02,000\nAgent: Hello.\n\n2\n00:00:02,000 --> 00:00:03,000\nCaller: Hi.\n';
    expect(parseTextTranscript(cues, 'call.txt').format).toBe('srt');
    expect(parseTextTranscript(cues, 'call.vtt').format).toBe('zoom');
    expect(parseTextTranscript('Agent: Hello.\nCaller: Hi.', 'call.srt').format).toBe('speaker-lines');
  });

  it('keeps the words of a cue with a broken timing line, warning once', () => {
    const srt = lines('1', '00:00:01,000 --> 00:00:02,000', 'Agent: Hello.', '', '2', '00:00:02,000 --> 00:00:75,000', 'Caller: Hi there.', '', '3', '00:00:05,000 --> 00:00:06,000', 'Agent: How can I help?');
    expect(parseTextTranscript(srt, 'call.srt')).toEqual({
      format: 'srt',
      segments: [
        { speaker: 'Agent', startMs: 1_000, endMs: 2_000, text: 'Hello.' },
        { speaker: 'Caller', text: 'Hi there.' },
        { speaker: 'Agent', startMs: 5_000, endMs: 6_000, text: 'How can I help?' },
      ],
      speakers: ['Agent', 'Caller'],
      warnings: ['A timing line in call.srt could not be read; the text under it is kept without times.'],
    });
  });
});

describe('parseTextTranscript: Google Meet', () => {
  it('reads the blocks under each time, skipping the title, attendees and closing line', () => {
    expect(parseTextTranscript(fixture('google-meet.txt'), 'Pipeline review.txt')).toEqual({
      format: 'google-meet',
      segments: [
        { speaker: 'Grace Mensah', startMs: 0, endMs: 300_000, text: "Okay, I think everyone is here. Let's look at the Q2 pipeline." },
        { speaker: 'Oliver Quist', startMs: 0, endMs: 300_000, text: 'I can start. We added eleven new opportunities this month. Three of them came from the trade show in Lyon.' },
        { speaker: 'Sofia Marchetti', startMs: 0, endMs: 300_000, text: 'What is the weighted value now?' },
        { speaker: 'Oliver Quist', startMs: 300_000, endMs: 461_000, text: 'Just over four hundred thousand.' },
        { speaker: 'Grace Mensah', startMs: 300_000, endMs: 461_000, text: 'Good. Sofia, can you own the follow-up with the Lyon leads?' },
        { speaker: 'Sofia Marchetti', startMs: 300_000, endMs: 461_000, text: "Yes, I'll reach out this week." },
      ],
      speakers: ['Grace Mensah', 'Oliver Quist', 'Sofia Marchetti'],
      warnings: [],
    });
  });

  it('carries a speaker over a block boundary and leaves the last block open without a closing line', () => {
    const meet = lines('Standup - Transcript', 'Attendees', 'Anna Lopez, Ben Carter', 'Transcript', '00:00:00', 'Anna Lopez: Yesterday I finished the export', '00:05:00', 'and today I start on imports.', 'Ben Carter: Same as yesterday.');
    expect(parseTextTranscript(meet)).toEqual({
      format: 'google-meet',
      segments: [
        { speaker: 'Anna Lopez', startMs: 0, endMs: 300_000, text: 'Yesterday I finished the export' },
        { speaker: 'Anna Lopez', startMs: 300_000, text: 'and today I start on imports.' },
        { speaker: 'Ben Carter', startMs: 300_000, text: 'Same as yesterday.' },
      ],
      speakers: ['Anna Lopez', 'Ben Carter'],
      warnings: [],
    });
  });
});

describe('parseTextTranscript: text without structure', () => {
  it('reads paragraphs as segments of one unknown speaker, with a warning', () => {
    expect(parseTextTranscript('We talked about the renewal.\nThey want a discount.\n\n\nNext call on Friday.', 'notes.txt')).toEqual({
      format: 'plain',
      segments: [
        { speaker: UNKNOWN_SPEAKER, text: 'We talked about the renewal. They want a discount.' },
        { speaker: UNKNOWN_SPEAKER, text: 'Next call on Friday.' },
      ],
      speakers: [UNKNOWN_SPEAKER],
      warnings: ['No speakers found in notes.txt: the whole text is treated as one speaker.'],
    });
  });

  it('words its warnings without a file name', () => {
    expect(parseTextTranscript('just words').warnings).toEqual(['No speakers found in the transcript: the whole text is treated as one speaker.']);
    expect(parseTextTranscript('').warnings).toEqual(['The transcript is empty.']);
    expect(TEXT_TRANSCRIPT_MESSAGES.leftOutLines(3)).toBe('The first 3 lines of the transcript came before any speaker and were left out.');
  });

  it('gives no segments for empty or whitespace-only content', () => {
    for (const content of ['', '   ', '\n\n\t\r\n', '\uFEFF', '\u00A0\u2003']) {
      expect(parseTextTranscript(content, 'call.txt'), JSON.stringify(content)).toEqual({ format: 'plain', segments: [], speakers: [], warnings: ['The transcript call.txt is empty.'] });
    }
  });

  it('reads binary-looking content as text without crashing, and says some was not text', () => {
    const garbage = 'PK\u0003\u0004\u0014\u0000\u0006\u0000\b\u0000\u0000\u0000!\u0000\uFFFD\uFFFDn\uFFFD[Content_Types].xml \uFFFD\u0004\u0002(\uFFFD\u0000\u0002\u0000\u0000';
    const parsed = parseTextTranscript(garbage, 'contract.docx.txt');
    expect(parsed.format).toBe('plain');
    expect(parsed.segments).toEqual([{ speaker: UNKNOWN_SPEAKER, text: 'PK ! n [Content_Types].xml (' }]);
    expect(parsed.warnings).toEqual([
      'Some characters in contract.docx.txt are not text; they were left out.',
      'No speakers found in contract.docx.txt: the whole text is treated as one speaker.',
    ]);
  });

  it('reads a very long single line as one segment', () => {
    const sentence = 'We reviewed the onboarding plan and agreed on the next steps. ';
    const parsed = parseTextTranscript(sentence.repeat(2_000));
    expect(parsed.format).toBe('plain');
    expect(parsed.segments).toEqual([{ speaker: UNKNOWN_SPEAKER, text: sentence.repeat(2_000).trim() }]);
  });
});

describe('parseTextTranscript: text encoding and layout', () => {
  it('strips a byte order mark, so a WebVTT header after it is still seen', () => {
    expect(parseTextTranscript('\uFEFFWEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Anna>Hi.').format).toBe('webvtt');
    expect(parseTextTranscript('\uFEFFAnna: Hi.\nBen: Hello.').segments[0]).toEqual({ speaker: 'Anna', text: 'Hi.' });
  });

  it('reads CRLF and old Mac CR line endings alike', () => {
    const expected = [
      { speaker: 'Anna', text: 'Hi. How are you?' },
      { speaker: 'Ben', text: 'Fine.' },
    ];
    expect(parseTextTranscript('Anna: Hi.\r\nHow are you?\r\nBen: Fine.\r\n').segments).toEqual(expected);
    expect(parseTextTranscript('Anna: Hi.\rHow are you?\rBen: Fine.\r').segments).toEqual(expected);
  });

  it('collapses tabs, repeated and non-breaking spaces, and trims', () => {
    expect(parseTextTranscript('  Anna   Lopez:\tHi\u00A0 there,   Ben.  \nBen:    Hello.   ').segments).toEqual([
      { speaker: 'Anna Lopez', text: 'Hi there, Ben.' },
      { speaker: 'Ben', text: 'Hello.' },
    ]);
  });

  it('lists speakers once each, in the order they first speak', () => {
    expect(parseTextTranscript('Cara: One.\nAnna: Two.\nCara: Three.\nBen: Four.\nAnna: Five.').speakers).toEqual(['Cara', 'Anna', 'Ben']);
  });

  it('reads a 100 KB transcript in well under a second', () => {
    const turns: string[] = [];
    for (let index = 0; turns.join('\n').length < 100 * 1024; index += 1) {
      const seconds = index * 7;
      const clock = `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
      turns.push(`[${clock}] ${index % 2 === 0 ? 'Anna Lopez' : 'Ben Carter'}: Point ${index}, about pricing, rollout dates and who signs the order form.`);
    }
    const started = performance.now();
    const parsed = parseTextTranscript(turns.join('\n'));
    expect(performance.now() - started).toBeLessThan(500);
    expect(parsed.format).toBe('timestamped-lines');
    expect(parsed.segments).toHaveLength(turns.length);
    expect(parsed.segments.at(-1)?.startMs).toBe((turns.length - 1) * 7_000);
  });
});

describe('parseTextTranscript: one speaker per person', () => {
  it('takes "Alex (Sales Manager)", "Alex" and "ALEX" for one speaker, shown with the fullest label', () => {
    const parsed = parseTextTranscript(
      lines('Alex (Sales Manager): Thanks for joining, Priya.', 'Priya: Happy to be here.', 'Alex: Shall we start with the pilot?', 'ALEX: And then the pricing.', 'Priya: Sure.'),
      'review.txt',
    );
    expect(parsed.speakers).toEqual(['Alex (Sales Manager)', 'Priya']);
    expect(parsed.segments).toEqual([
      { speaker: 'Alex (Sales Manager)', text: 'Thanks for joining, Priya.' },
      { speaker: 'Priya', text: 'Happy to be here.' },
      { speaker: 'Alex (Sales Manager)', text: 'Shall we start with the pilot? And then the pricing.' },
      { speaker: 'Priya', text: 'Sure.' },
    ]);
  });

  it('joins WebVTT voices written with and without a title', () => {
    const parsed = parseTextTranscript(
      lines('WEBVTT', '', '00:00:01.000 --> 00:00:03.000', '<v Dr. Ana Lopez>Good morning.', '', '00:00:03.500 --> 00:00:05.000', '<v Ben>Morning.', '', '00:00:05.500 --> 00:00:07.000', '<v Ana Lopez>Let us begin.'),
    );
    expect(parsed.speakers).toEqual(['Dr. Ana Lopez', 'Ben']);
    expect(parsed.segments.map((segment) => segment.speaker)).toEqual(['Dr. Ana Lopez', 'Ben', 'Dr. Ana Lopez']);
  });

  it('keeps two people who share a first name apart when their notes differ', () => {
    const parsed = parseTextTranscript(lines('Alex (Acme): Hello.', 'Alex (Globex): Hi there.', 'Alex (Acme): Shall we begin?'));
    expect(parsed.speakers).toEqual(['Alex (Acme)', 'Alex (Globex)']);
  });
});
