/**
 * Reading a vendor's JSON answer strictly: a value not of the shape a client relies on is a final
 * VendorHttpError of kind 'server' naming the request and what was wrong, so nothing half-read
 * travels further.
 */
import { VendorHttpError } from './vendor-http.js';

export interface AnswerReader {
  malformed(where: string, problem: string): VendorHttpError;
  objectIn(value: unknown, where: string): Record<string, unknown>;
  listIn(value: unknown, where: string, field: string): unknown[];
  /** A non-empty string field. */
  textIn(record: Record<string, unknown>, field: string, where: string): string;
}

export function answerReader(vendor: string): AnswerReader {
  const malformed = (where: string, problem: string) =>
    new VendorHttpError({ vendor, kind: 'server', retryable: false, attempts: 1, message: `${vendor} answered ${where} in an unexpected shape: ${problem}` });
  return {
    malformed,
    objectIn(value, where) {
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
      throw malformed(where, 'expected an object');
    },
    listIn(value, where, field) {
      if (Array.isArray(value)) return value;
      throw malformed(where, `${field} is not a list`);
    },
    textIn(record, field, where) {
      const value = record[field];
      if (typeof value === 'string' && value !== '') return value;
      throw malformed(where, `${field} is missing`);
    },
  };
}

/** A string that says something, else null. */
export function optionalText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
