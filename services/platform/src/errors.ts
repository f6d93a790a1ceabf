/**
 * Typed domain errors. Services throw these; the gRPC layer maps them to status codes and the
 * gateway maps status codes to HTTP, each in exactly one place (grpc/status-mapping.ts).
 * The message is meant for a person and is passed through to the API response as is.
 */
export type DomainErrorKind =
  | 'invalid-argument'
  | 'not-found'
  | 'already-exists'
  | 'permission-denied'
  | 'unauthenticated'
  | 'failed-precondition'
  | 'resource-exhausted'
  | 'unavailable'
  | 'internal';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** Machine-readable details (field names, limits); never secrets. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidArgument = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid-argument', message, details);
export const notFound = (message: string, details?: Record<string, unknown>) => new DomainError('not-found', message, details);
export const alreadyExists = (message: string, details?: Record<string, unknown>) =>
  new DomainError('already-exists', message, details);
export const permissionDenied = (message: string, details?: Record<string, unknown>) =>
  new DomainError('permission-denied', message, details);
export const unauthenticated = (message: string, details?: Record<string, unknown>) =>
  new DomainError('unauthenticated', message, details);
export const failedPrecondition = (message: string, details?: Record<string, unknown>) =>
  new DomainError('failed-precondition', message, details);
