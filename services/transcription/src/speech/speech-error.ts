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

/**
 * The speech server cannot be reached now (installing, starting, restarting, down, or its proxy
 * says it is briefly unable): the recording waits for it instead of failing, until the wait is
 * too long (see pipeline/speech-outage). The message says what was seen, for that final failure.
 */
export class SpeechServerUnavailable extends SpeechError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpeechServerUnavailable';
  }
}
