/**
 * The transcript as the model reads it, one segment a line (`[index] time speaker (role): text`),
 * and split into parts that each fit a token budget when the whole does not. Nothing is cut: every
 * segment is in exactly one part, whole, except a segment too long for any part, which is split
 * inside into pieces (`[12 piece 2/3] …`) that keep its index, so the model's quotes still name
 * the segment they come from.
 */
import { clockTime } from '@parlance/platform/text/clock-time';
import { SpeakerRole, type Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { estimateTokens } from './token-estimate.js';

export interface TranscriptLine {
  segmentIndex: number;
  /** Set when the segment was too long for one part and was split into pieces. */
  piece?: { number: number; of: number };
  /** The line as sent, without its newline. */
  text: string;
  /** The line's estimated tokens, its newline included. */
  tokens: number;
}

function roleName(role: SpeakerRole | undefined): string {
  if (role === SpeakerRole.SPEAKER_ROLE_REPRESENTATIVE) return 'representative';
  if (role === SpeakerRole.SPEAKER_ROLE_CONTACT) return 'contact';
  return 'role unknown';
}

/** Each speaker label's role, as the transcript's speakers list gives it. */
export function speakerRoles(transcript: Transcript): Map<string, SpeakerRole> {
  return new Map(transcript.speakers.map((speaker) => [speaker.label, speaker.role]));
}

/** "4:05" from the start, or "1:02:05" past the hour. */
export const formatTime = clockTime;

/**
 * The transcript's lines, none longer than maxLineTokens: a segment that would be is split into
 * pieces at word boundaries (inside a word only when one word alone is too long).
 */
export function transcriptLines(transcript: Transcript, maxLineTokens: number): TranscriptLine[] {
  const roles = speakerRoles(transcript);
  const lines: TranscriptLine[] = [];
  transcript.segments.forEach((segment, segmentIndex) => {
    const text = segment.text.replace(/\s+/g, ' ').trim();
    const head = (label: string) => {
      const time = segment.startMs === undefined ? '' : ` ${formatTime(segment.startMs)}`;
      return `[${label}]${time} ${segment.speaker.trim() || 'Unknown speaker'} (${roleName(roles.get(segment.speaker))}): `;
    };
    const whole = `${head(String(segmentIndex))}${text}`;
    if (lineTokens(whole) <= maxLineTokens) {
      lines.push({ segmentIndex, text: whole, tokens: lineTokens(whole) });
      return;
    }
    // The longest head a piece can have, so every piece fits whatever its number.
    const headTokens = lineTokens(head(`${segmentIndex} piece 99999/99999`));
    const pieces = splitText(text, Math.max(1, maxLineTokens - headTokens));
    pieces.forEach((piece, index) => {
      const line = `${head(`${segmentIndex} piece ${index + 1}/${pieces.length}`)}${piece}`;
      lines.push({ segmentIndex, piece: { number: index + 1, of: pieces.length }, text: line, tokens: lineTokens(line) });
    });
  });
  return lines;
}

const lineTokens = (line: string) => estimateTokens(`${line}\n`);

/**
 * The text in consecutive pieces of at most maxTokens each, split between words (inside a word
 * only when the word alone is too long). Each word's tokens are estimated on their own, which
 * over-counts a little: safe.
 */
export function splitText(text: string, maxTokens: number): string[] {
  const pieces: string[] = [];
  let current = '';
  let currentTokens = 0;
  for (const word of text.split(' ').filter(Boolean)) {
    chunksOfWord(word, maxTokens).forEach((chunk, index) => {
      // Chunks of one word join without a space, so the piece stays a substring of the segment.
      const joined = current === '' || index > 0 ? chunk : ` ${chunk}`;
      const tokens = estimateTokens(joined);
      if (current !== '' && currentTokens + tokens > maxTokens) {
        pieces.push(current);
        current = chunk;
        currentTokens = estimateTokens(chunk);
      } else {
        current += joined;
        currentTokens += tokens;
      }
    });
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

/** A word too long for one piece (a URL, a language written without spaces), in chunks that fit. */
function chunksOfWord(word: string, maxTokens: number): string[] {
  if (estimateTokens(` ${word}`) <= maxTokens) return [word];
  const chunks: string[] = [];
  let chunk = '';
  for (const character of word) {
    if (chunk && estimateTokens(` ${chunk}${character}`) > maxTokens) {
      chunks.push(chunk);
      chunk = '';
    }
    chunk += character;
  }
  if (chunk) chunks.push(chunk);
  return chunks;
}

/**
 * The lines in consecutive parts of at most budgetTokens each, as few as whole lines allow and as
 * even as they allow (so the last part is not a scrap judged with little context). Every line
 * must fit the budget on its own, which transcriptLines guarantees when given the same budget.
 */
export function splitIntoParts(lines: TranscriptLine[], budgetTokens: number): TranscriptLine[][] {
  const total = lines.reduce((sum, line) => sum + line.tokens, 0);
  // Whole lines rarely fill a part exactly, so the fewest parts may take one or two more than the tokens alone say.
  for (let count = Math.max(1, Math.ceil(total / budgetTokens)); ; count += 1) {
    const parts = partsOfCount(lines, budgetTokens, total, count);
    if (parts.length <= count) return parts;
  }
}

/** Parts aiming at `count`, each taking an even share of what the earlier ones left. */
function partsOfCount(lines: TranscriptLine[], budgetTokens: number, total: number, count: number): TranscriptLine[][] {
  const parts: TranscriptLine[][] = [];
  let current: TranscriptLine[] = [];
  let currentTokens = 0;
  let left = total;
  let share = total / count;
  for (const line of lines) {
    // Close the part when the line would overflow it, or would end past its share by more than half of itself.
    const overflows = currentTokens + line.tokens > budgetTokens;
    const pastShare = currentTokens + line.tokens / 2 > share;
    if (current.length > 0 && (overflows || pastShare)) {
      parts.push(current);
      left -= currentTokens;
      share = left / Math.max(1, count - parts.length);
      current = [];
      currentTokens = 0;
    }
    current.push(line);
    currentTokens += line.tokens;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}
