/**
 * Clock readings as transcripts write them: `1:02:03`, `00:01:02`, `01:02`, with an optional
 * fraction after a dot (WebVTT, most tools) or a comma (SRT).
 */

/** A clock reading, unanchored, for building larger patterns. Values are checked by `clockToMs`. */
export const CLOCK_PATTERN = String.raw`\d{1,3}(?::\d{1,3}){1,2}(?:[.,]\d{1,3})?`;

const CLOCK_PARTS = /^(?:(\d{1,3}):)?(\d{1,3}):(\d{2})(?:[.,](\d{1,3}))?$/;

/**
 * Milliseconds from the start of the recording, or undefined when the text is not a clock reading
 * (seconds of 60 or more, or minutes of 60 or more after an hour field). Minutes may exceed 59 when
 * there is no hour field because some tools count `75:12` rather than `1:15:12`.
 */
export function clockToMs(text: string): number | undefined {
  const match = CLOCK_PARTS.exec(text.trim());
  if (!match) return undefined;
  const [, hoursText, minutesText = '', secondsText = '', fractionText] = match;
  const minutes = Number(minutesText);
  const seconds = Number(secondsText);
  if (seconds >= 60 || (hoursText !== undefined && minutes >= 60)) return undefined;
  const hours = hoursText === undefined ? 0 : Number(hoursText);
  // A fraction is tenths, hundredths or thousandths as written: ",5" is half a second.
  const milliseconds = fractionText === undefined ? 0 : Number(fractionText.padEnd(3, '0'));
  return ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds;
}
