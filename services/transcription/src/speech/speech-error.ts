/**
 * Why audio could not be turned into words, in a short sentence a person can read (no trailing
 * period, never an API key), e.g. 'the file contains no audio' or 'the speech server answered 401:
 * Incorrect API key provided'. The job that failed reports it as
 * 'Processing failed for {file}: {reason}'.
 */
export class SpeechError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpeechError';
  }
}
