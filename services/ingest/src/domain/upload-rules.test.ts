import { describe, expect, it } from 'vitest';
import {
  AUDIO_MAX_BYTES,
  checkAudioContent,
  checkAudioFiles,
  checkMeetingFiles,
  checkUploadRequest,
  formatFileList,
  hasMeetingExtension,
  MEETING_EXTENSIONS,
  MEETING_MAX_BYTES,
  processingFailedMessage,
  UPLOAD_MESSAGES,
  type UploadRequest,
} from './upload-rules.js';

const completeRequest: UploadRequest = { companyId: 'company-1', teamId: 'team-1', representative: 'rep@example.com', fileCount: 2 };

describe('checkUploadRequest', () => {
  it('accepts a request with a company, team, representative and files', () => {
    expect(checkUploadRequest('calls', completeRequest)).toEqual({ ok: true });
    expect(checkUploadRequest('meetings', completeRequest)).toEqual({ ok: true });
  });

  it('says the company ID is missing', () => {
    expect(checkUploadRequest('calls', { ...completeRequest, companyId: undefined })).toEqual({
      ok: false,
      message: 'Upload failed: Company ID is missing.',
      severity: 'error',
    });
  });

  it('asks for a team', () => {
    expect(checkUploadRequest('calls', { ...completeRequest, teamId: '' })).toMatchObject({ message: 'Please select a team.' });
  });

  it('asks for a representative', () => {
    expect(checkUploadRequest('calls', { ...completeRequest, representative: undefined })).toMatchObject({ message: 'Please provide a Representative.' });
  });

  it('asks for at least one file for calls, and at least one text file for meetings', () => {
    expect(checkUploadRequest('calls', { ...completeRequest, fileCount: 0 })).toMatchObject({ message: 'Please select at least one file to upload.' });
    expect(checkUploadRequest('meetings', { ...completeRequest, fileCount: 0 })).toMatchObject({ message: 'Please select at least one text file to upload.' });
  });

  it('counts a value of only spaces as missing', () => {
    expect(checkUploadRequest('calls', { ...completeRequest, companyId: '  ' })).toMatchObject({ message: UPLOAD_MESSAGES.companyMissing });
    expect(checkUploadRequest('calls', { ...completeRequest, teamId: ' ' })).toMatchObject({ message: UPLOAD_MESSAGES.teamMissing });
    expect(checkUploadRequest('calls', { ...completeRequest, representative: '\t' })).toMatchObject({ message: UPLOAD_MESSAGES.representativeMissing });
  });

  it('checks company, then team, then representative, then files', () => {
    const empty: UploadRequest = { fileCount: 0 };
    expect(checkUploadRequest('calls', empty)).toMatchObject({ message: UPLOAD_MESSAGES.companyMissing });
    expect(checkUploadRequest('calls', { ...empty, companyId: 'c' })).toMatchObject({ message: UPLOAD_MESSAGES.teamMissing });
    expect(checkUploadRequest('calls', { ...empty, companyId: 'c', teamId: 't' })).toMatchObject({ message: UPLOAD_MESSAGES.representativeMissing });
    expect(checkUploadRequest('calls', { ...empty, companyId: 'c', teamId: 't', representative: 'r@example.com' })).toMatchObject({
      message: UPLOAD_MESSAGES.noFiles,
    });
  });

  it('reports meeting checks as warnings and call checks as errors', () => {
    expect(checkUploadRequest('meetings', { ...completeRequest, teamId: undefined })).toEqual({ ok: false, message: 'Please select a team.', severity: 'warning' });
    expect(checkUploadRequest('calls', { ...completeRequest, teamId: undefined })).toEqual({ ok: false, message: 'Please select a team.', severity: 'error' });
  });
});

describe('checkAudioFiles', () => {
  it('accepts files up to exactly 25 MB', () => {
    expect(AUDIO_MAX_BYTES).toBe(26_214_400);
    expect(checkAudioFiles([{ name: 'a.wav', size: AUDIO_MAX_BYTES }, { name: 'b.mp3', size: 1 }])).toEqual({ ok: true });
  });

  it('names every file over 25 MB, comma-separated', () => {
    expect(
      checkAudioFiles([
        { name: 'long-call.wav', size: AUDIO_MAX_BYTES + 1 },
        { name: 'short.mp3', size: 1000 },
        { name: 'all-hands.m4a', size: 40_000_000 },
      ]),
    ).toEqual({ ok: false, message: 'The following audio files are too large (max 25MB): long-call.wav, all-hands.m4a' });
  });

  it('names empty files', () => {
    expect(checkAudioFiles([{ name: 'blank.wav', size: 0 }, { name: 'ok.wav', size: 10 }])).toEqual({
      ok: false,
      message: 'The following files are empty: blank.wav',
    });
  });

  it('reports size before emptiness', () => {
    expect(checkAudioFiles([{ name: 'blank.wav', size: 0 }, { name: 'huge.wav', size: AUDIO_MAX_BYTES + 1 }])).toMatchObject({
      message: UPLOAD_MESSAGES.audioTooLarge(['huge.wav']),
    });
  });
});

describe('checkMeetingFiles', () => {
  it('accepts .txt, .md and .text files up to exactly 100 KB', () => {
    expect(MEETING_MAX_BYTES).toBe(102_400);
    expect(MEETING_EXTENSIONS).toEqual(['.txt', '.md', '.text']);
    expect(
      checkMeetingFiles([
        { name: 'standup.txt', size: MEETING_MAX_BYTES },
        { name: 'review.md', size: 10 },
        { name: 'interview.text', size: 10 },
      ]),
    ).toEqual({ ok: true });
  });

  it('names every file over 100 KB, comma-separated', () => {
    expect(
      checkMeetingFiles([
        { name: 'a.txt', size: MEETING_MAX_BYTES + 1 },
        { name: 'b.md', size: 5 },
        { name: 'c.text', size: 200_000 },
      ]),
    ).toEqual({ ok: false, message: 'The following files are too large (max 100KB): a.txt, c.text' });
  });

  it('names the files that are not text files, whatever their size', () => {
    expect(
      checkMeetingFiles([
        { name: 'call.mp3', size: 5_000_000 },
        { name: 'notes.txt', size: 5 },
        { name: 'slides.pdf', size: 5 },
      ]),
    ).toEqual({ ok: false, message: 'The following files are not text files (accepted: .txt, .md, .text): call.mp3, slides.pdf' });
  });

  it('names empty files after the other checks', () => {
    expect(checkMeetingFiles([{ name: 'empty.md', size: 0 }])).toEqual({ ok: false, message: 'The following files are empty: empty.md' });
    expect(checkMeetingFiles([{ name: 'empty.md', size: 0 }, { name: 'big.md', size: MEETING_MAX_BYTES + 1 }])).toMatchObject({
      message: UPLOAD_MESSAGES.meetingTooLarge(['big.md']),
    });
  });
});

describe('hasMeetingExtension', () => {
  it('compares the last extension case-insensitively', () => {
    expect(hasMeetingExtension('Notes.TXT')).toBe(true);
    expect(hasMeetingExtension('summary.Md')).toBe(true);
    expect(hasMeetingExtension('call.2024.text')).toBe(true);
  });

  it('rejects other extensions, a name without one, and a hidden extension', () => {
    expect(hasMeetingExtension('notes.txt.exe')).toBe(false);
    expect(hasMeetingExtension('notes')).toBe(false);
    expect(hasMeetingExtension('notes.markdown')).toBe(false);
    expect(hasMeetingExtension('txt')).toBe(false);
  });
});

describe('checkAudioContent', () => {
  const wavHead = Uint8Array.from('RIFF\x24\x00\x00\x00WAVE', (char) => char.charCodeAt(0));

  it('accepts audio it recognises and returns its format', () => {
    expect(checkAudioContent('call.bin', wavHead)).toEqual({ ok: true, format: { container: 'wav', mimeType: 'audio/wav', extension: 'wav' } });
  });

  it('names a file whose content is not audio, whatever its name', () => {
    const text = Uint8Array.from('Hello, this is a transcript.', (char) => char.charCodeAt(0));
    expect(checkAudioContent('call.mp3', text)).toEqual({
      ok: false,
      message: 'call.mp3 is not an audio file Parlance can read (accepted: WAV, MP3, M4A/AAC, OGG/Opus, FLAC or WebM).',
    });
  });

  it('calls an empty file empty rather than not audio', () => {
    expect(checkAudioContent('silence.wav', new Uint8Array(0))).toEqual({ ok: false, message: 'The following files are empty: silence.wav' });
  });
});

describe('processingFailedMessage', () => {
  it("reads 'Processing failed for {file}: {reason}'", () => {
    expect(processingFailedMessage('call.wav', 'Transcription timed out')).toBe('Processing failed for call.wav: Transcription timed out');
  });
});

describe('formatFileList', () => {
  it('joins names with a comma and a space, in the order given', () => {
    expect(formatFileList(['b.wav', 'a.wav', 'c d.wav'])).toBe('b.wav, a.wav, c d.wav');
    expect(formatFileList(['only.wav'])).toBe('only.wav');
  });
});
