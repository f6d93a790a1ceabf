import { describe, expect, it } from 'vitest';
import {
  checkAudioContent,
  checkUploadRequest,
  formatFileList,
  hasMeetingExtension,
  representativeNameOf,
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

describe('representativeNameOf', () => {
  const grace = { firstName: 'Grace', lastName: 'Hopper' };

  it('keeps the name the upload sent', () => {
    expect(representativeNameOf('  Gracie ', grace)).toBe('Gracie');
    expect(representativeNameOf('Gracie', undefined)).toBe('Gracie');
  });

  it('takes the first name from the team when the upload sends none, or N/A', () => {
    expect(representativeNameOf('', grace)).toBe('Grace');
    expect(representativeNameOf('N/A', grace)).toBe('Grace');
    expect(representativeNameOf(' n/a ', grace)).toBe('Grace');
  });

  it('falls back to the last name, then to N/A', () => {
    expect(representativeNameOf('', { firstName: ' ', lastName: 'Hopper' })).toBe('Hopper');
    expect(representativeNameOf('', { firstName: '', lastName: '' })).toBe('N/A');
    expect(representativeNameOf('', undefined)).toBe('N/A');
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

describe('UPLOAD_MESSAGES.processingFailed', () => {
  it("reads 'Processing failed for {file}: {reason}'", () => {
    expect(UPLOAD_MESSAGES.processingFailed('call.wav', 'Transcription timed out')).toBe('Processing failed for call.wav: Transcription timed out');
  });
});

describe('formatFileList', () => {
  it('joins names with a comma and a space, in the order given', () => {
    expect(formatFileList(['b.wav', 'a.wav', 'c d.wav'])).toBe('b.wav, a.wav, c d.wav');
    expect(formatFileList(['only.wav'])).toBe('only.wav');
  });
});
