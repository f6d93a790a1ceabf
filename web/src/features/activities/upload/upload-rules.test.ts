import { describe, expect, it } from 'vitest';
import {
  aboutFile,
  addMeetingFiles,
  AUDIO_MAX_BYTES,
  callUploadToast,
  checkCallUpload,
  checkMeetingUpload,
  fileDate,
  formatFileSize,
  hasMeetingExtension,
  MEETING_MAX_BYTES,
  meetingUploadToast,
  repNameOf,
  UPLOAD_MESSAGES,
} from './upload-rules';

const ready = { companyId: 'c-1', teamId: 'team-1', representative: 'ada@example.com' };
const small = (name: string) => ({ name, size: 10 });

describe('checks before a call upload', () => {
  it('asks for the company, team, representative and a file, in that order, as errors', () => {
    const nothing = { companyId: null, teamId: '', representative: '', audioFiles: [], textFiles: [] };
    expect(checkCallUpload(nothing)).toEqual({ kind: 'error', text: 'Upload failed: Company ID is missing.' });
    expect(checkCallUpload({ ...nothing, companyId: 'c-1' })).toEqual({ kind: 'error', text: 'Please select a team.' });
    expect(checkCallUpload({ ...nothing, companyId: 'c-1', teamId: 'team-1' })).toEqual({ kind: 'error', text: 'Please provide a Representative.' });
    expect(checkCallUpload({ ...ready, audioFiles: [], textFiles: [] })).toEqual({ kind: 'error', text: 'Please select at least one file to upload.' });
  });

  it('counts spaces as missing', () => {
    expect(checkCallUpload({ ...ready, teamId: '  ', audioFiles: [small('a.mp3')], textFiles: [] })?.text).toBe('Please select a team.');
  });

  it('names every audio file above 25 MB (26214400 bytes), after the other checks', () => {
    const audioFiles = [
      { name: 'big.mp3', size: AUDIO_MAX_BYTES + 1 },
      { name: 'exact.mp3', size: AUDIO_MAX_BYTES },
      { name: 'huge.wav', size: 90_000_000 },
    ];
    expect(checkCallUpload({ ...ready, audioFiles, textFiles: [] })).toEqual({
      kind: 'error',
      text: 'The following audio files are too large (max 25MB): big.mp3, huge.wav',
    });
    expect(checkCallUpload({ ...ready, representative: '', audioFiles, textFiles: [] })?.text).toBe('Please provide a Representative.');
  });

  it('lets text files of any size through (the server limits them)', () => {
    expect(checkCallUpload({ ...ready, audioFiles: [], textFiles: [{ name: 'call.txt', size: AUDIO_MAX_BYTES * 2 }] })).toBeNull();
  });
});

describe('checks before a meeting upload', () => {
  it('asks for the same things in the same order, as warnings, with its own no-file message', () => {
    const nothing = { companyId: '', teamId: '', representative: '', files: [] };
    expect(checkMeetingUpload(nothing)).toEqual({ kind: 'warning', text: 'Upload failed: Company ID is missing.' });
    expect(checkMeetingUpload({ ...nothing, companyId: 'c-1' })).toEqual({ kind: 'warning', text: 'Please select a team.' });
    expect(checkMeetingUpload({ ...nothing, companyId: 'c-1', teamId: 't' })).toEqual({ kind: 'warning', text: 'Please provide a Representative.' });
    expect(checkMeetingUpload({ ...ready, files: [] })).toEqual({ kind: 'warning', text: 'Please select at least one text file to upload.' });
    expect(checkMeetingUpload({ ...ready, files: [small('a.txt')] })).toBeNull();
  });

  it('names every file above 100KB (102400 bytes)', () => {
    const files = [
      { name: 'a.txt', size: MEETING_MAX_BYTES },
      { name: 'b.md', size: MEETING_MAX_BYTES + 1 },
      { name: 'c.text', size: 500_000 },
    ];
    expect(checkMeetingUpload({ ...ready, files })).toEqual({ kind: 'warning', text: 'The following files are too large (max 100KB): b.md, c.text' });
  });
});

describe('meeting files', () => {
  it('accepts .txt, .md and .text in any case', () => {
    expect(['a.txt', 'b.MD', 'c.Text', 'notes.v2.txt'].map(hasMeetingExtension)).toEqual([true, true, true, true]);
    expect(['a.pdf', 'txt', 'a.txt.bak', 'a.'].map(hasMeetingExtension)).toEqual([false, false, false, false]);
  });

  it('adds picked files with an accepted extension once, keeping the order', () => {
    const file = (name: string, lastModified = 1) => ({ name, size: 5, lastModified });
    const current = [file('a.txt')];
    expect(addMeetingFiles(current, [file('a.txt'), file('b.md'), file('c.pdf'), file('b.md'), file('a.txt', 2)]).map((f) => `${f.name}@${f.lastModified}`)).toEqual([
      'a.txt@1',
      'b.md@1',
      'a.txt@2',
    ]);
  });

  it('shows sizes in B, KB and MB', () => {
    expect([512, 2048, 102_400, 3 * 1024 * 1024].map(formatFileSize)).toEqual(['512 B', '2.0 KB', '100.0 KB', '3.0 MB']);
  });
});

describe('upload fields', () => {
  it("sends the representative's first name, or N/A", () => {
    expect(repNameOf({ first_name: ' Ada ' })).toBe('Ada');
    expect(repNameOf({ first_name: '' })).toBe('N/A');
    expect(repNameOf(undefined)).toBe('N/A');
  });

  it("dates an upload with the file's last-modified time in ISO 8601", () => {
    expect(fileDate({ lastModified: Date.UTC(2025, 2, 4, 10, 30) })).toBe('2025-03-04T10:30:00.000Z');
  });

  it('names the file in an error unless the error already does', () => {
    expect(aboutFile('a.txt', 'Failed to read file')).toBe('a.txt: Failed to read file');
    expect(aboutFile('a.txt', 'Processing failed for a.txt: empty')).toBe('Processing failed for a.txt: empty');
  });
});

describe('progress and result messages', () => {
  it('words the progress as the spec does', () => {
    expect(UPLOAD_MESSAGES.uploadingFiles(3)).toBe('Uploading 3 files...');
    expect(UPLOAD_MESSAGES.uploadingFile(2, 3)).toBe('Uploading file 2/3');
    expect(UPLOAD_MESSAGES.processingFiles(3)).toBe('All files uploaded! Processing 3 files...');
  });

  it('words upload and job failures as the spec does', () => {
    expect(UPLOAD_MESSAGES.audioStatus('a.mp3', 500)).toBe('Error uploading a.mp3: Unexpected status code 500');
    expect(UPLOAD_MESSAGES.audioThrown('a.mp3', 'Network error')).toBe('Error uploading a.mp3: Network error');
    expect(UPLOAD_MESSAGES.textFailed('b.txt', 'Please select a team.')).toBe('Error uploading text: b.txt: Please select a team.');
    expect(UPLOAD_MESSAGES.jobFailed('j-1', 'Processing failed for a.mp3: silent')).toBe('Job j-1 failed: Processing failed for a.mp3: silent');
    expect(UPLOAD_MESSAGES.jobNotFound('j-1')).toBe('Job j-1 not found');
    expect(UPLOAD_MESSAGES.jobTimedOut('j-1', 7_200_000)).toBe('Job j-1 timed out after 7200000ms');
  });

  it('ends a call upload with success when nothing failed, else a warning listing the errors', () => {
    expect(callUploadToast(2, [])).toEqual({ kind: 'success', text: 'Processed 2/2 files successfully.' });
    expect(callUploadToast(3, ['Job j-1 not found', 'Job j-2 failed: x'])).toEqual({
      kind: 'warning',
      text: 'Processed 1/3 files successfully. 2 failed. Errors: Job j-1 not found; Job j-2 failed: x',
    });
  });

  it('ends a meeting upload with success, a warning when some failed, an error when all did', () => {
    expect(meetingUploadToast(2, [])).toEqual({ kind: 'success', text: 'Successfully uploaded and processed all 2/2 meeting(s)!' });
    expect(meetingUploadToast(3, ['b.md: Job failed'])).toEqual({
      kind: 'warning',
      text: 'Processed 2/3 meeting(s) successfully. 1 failed. Errors: b.md: Job failed',
    });
    expect(meetingUploadToast(1, ['a.txt: Failed to read file'])).toEqual({
      kind: 'error',
      text: 'Processed 0/1 meeting(s) successfully. 1 failed. Errors: a.txt: Failed to read file',
    });
  });
});
