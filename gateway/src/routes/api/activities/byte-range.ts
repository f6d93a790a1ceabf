/**
 * One HTTP byte range (RFC 9110 §14), as an audio element asks for it: `bytes=0-`, `bytes=500-999`
 * or the last bytes, `bytes=-500`. Several ranges in one request are answered with the whole
 * file, which the RFC allows and no media player needs otherwise.
 */

/** What a Range header asks for, before the file's size is known. */
export type RequestedRange = { kind: 'whole' } | { kind: 'from'; start: number; end?: number } | { kind: 'suffix'; length: number };

/** Bytes `start` to `end`, both included, of a file of `total` bytes; or unsatisfiable (416). */
export type ResolvedRange = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

/** A header that is absent, malformed or names several ranges means the whole file. */
export function requestedRange(header: string | undefined): RequestedRange {
  const match = header?.trim().match(SINGLE);
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') return { kind: 'suffix', length: Number(last) };
  const start = Number(first);
  if (last === '') return { kind: 'from', start };
  const end = Number(last);
  return end < start ? { kind: 'whole' } : { kind: 'from', start, end };
}

export function resolveRange(range: RequestedRange, total: number): ResolvedRange {
  switch (range.kind) {
    case 'whole':
      return { kind: 'whole' };
    case 'suffix':
      if (range.length === 0 || total === 0) return { kind: 'unsatisfiable' };
      return { kind: 'part', start: Math.max(0, total - range.length), end: total - 1 };
    case 'from':
      if (range.start >= total) return { kind: 'unsatisfiable' };
      return { kind: 'part', start: range.start, end: Math.min(total - 1, range.end ?? total - 1) };
  }
}
