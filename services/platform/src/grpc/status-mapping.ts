/**
 * The ONE place where errors change shape between layers:
 *
 *   DomainError.kind  --grpcCodeForKind-->  gRPC status  --httpStatusForGrpcCode-->  HTTP status
 *                                      (server)       (client: domainErrorFromServiceError)
 *
 * Services throw DomainError; grpc-server.ts turns it into a status with the error's message;
 * grpc-client.ts turns the status back into a DomainError (a GrpcCallError); the gateway answers
 * with httpStatusForError(error). Nothing else in the codebase maps codes.
 */
import { Metadata, status, type ServiceError, type StatusObject } from '@grpc/grpc-js';
import { DomainError, type DomainErrorKind } from '../errors.js';

const GRPC_CODE_BY_KIND: Record<DomainErrorKind, status> = {
  'invalid-argument': status.INVALID_ARGUMENT,
  'not-found': status.NOT_FOUND,
  'already-exists': status.ALREADY_EXISTS,
  'permission-denied': status.PERMISSION_DENIED,
  unauthenticated: status.UNAUTHENTICATED,
  'failed-precondition': status.FAILED_PRECONDITION,
  'resource-exhausted': status.RESOURCE_EXHAUSTED,
  unavailable: status.UNAVAILABLE,
  internal: status.INTERNAL,
};

export function grpcCodeForKind(kind: DomainErrorKind): status {
  return GRPC_CODE_BY_KIND[kind];
}

/**
 * gRPC code -> DomainError kind, for errors that come back from a call. Codes with no kind of
 * their own fold into the nearest one: ABORTED (a concurrent change won) is a failed
 * precondition, OUT_OF_RANGE an invalid argument, DEADLINE_EXCEEDED and CANCELLED mean the
 * answer did not arrive (unavailable); the original code stays on GrpcCallError.code.
 */
export function kindForGrpcCode(code: status): DomainErrorKind {
  switch (code) {
    case status.INVALID_ARGUMENT:
    case status.OUT_OF_RANGE:
      return 'invalid-argument';
    case status.NOT_FOUND:
      return 'not-found';
    case status.ALREADY_EXISTS:
      return 'already-exists';
    case status.PERMISSION_DENIED:
      return 'permission-denied';
    case status.UNAUTHENTICATED:
      return 'unauthenticated';
    case status.FAILED_PRECONDITION:
    case status.ABORTED:
      return 'failed-precondition';
    case status.RESOURCE_EXHAUSTED:
      return 'resource-exhausted';
    case status.UNAVAILABLE:
    case status.DEADLINE_EXCEEDED:
    case status.CANCELLED:
      return 'unavailable';
    default:
      return 'internal';
  }
}

/**
 * gRPC code -> HTTP status for the gateway. FAILED_PRECONDITION (and ABORTED) is 409 Conflict,
 * not 422: it means "the request is well-formed but conflicts with the current state of the
 * resource" (delete a team that still has activities, upload past a cancelled subscription),
 * which is what 409 says; a request that is itself invalid is INVALID_ARGUMENT, i.e. 400.
 */
export function httpStatusForGrpcCode(code: status): number {
  switch (code) {
    case status.INVALID_ARGUMENT:
    case status.OUT_OF_RANGE:
      return 400;
    case status.UNAUTHENTICATED:
      return 401;
    case status.PERMISSION_DENIED:
      return 403;
    case status.NOT_FOUND:
      return 404;
    case status.ALREADY_EXISTS:
    case status.FAILED_PRECONDITION:
    case status.ABORTED:
      return 409;
    case status.RESOURCE_EXHAUSTED:
      return 429;
    case status.DEADLINE_EXCEEDED:
      return 504;
    // A cancelled call is one the server gave up on (shutdown, or the caller went away).
    case status.CANCELLED:
    case status.UNAVAILABLE:
      return 503;
    default:
      return 500;
  }
}

/** A DomainError that came back from a gRPC call; `code` is the status the server sent. */
export class GrpcCallError extends DomainError {
  constructor(
    kind: DomainErrorKind,
    message: string,
    readonly code: status,
    /** Full method path, e.g. /parlance.platform.v1.Probe/GetProbe. */
    readonly method: string,
    details: Record<string, unknown> = {},
    cause?: unknown,
  ) {
    super(kind, message, details);
    this.name = 'GrpcCallError';
    if (cause !== undefined) this.cause = cause;
  }
}

/**
 * The HTTP status for a DomainError, thrown locally or come back from a call. A GrpcCallError is
 * mapped by the code the server sent, so DEADLINE_EXCEEDED stays 504 although its kind is
 * `unavailable`.
 */
export function httpStatusForDomainError(error: DomainError): number {
  if (error instanceof GrpcCallError) return httpStatusForGrpcCode(error.code);
  return httpStatusForGrpcCode(grpcCodeForKind(error.kind));
}

/** The HTTP status to answer with for any error a route lets escape: 500 unless a DomainError. */
export function httpStatusForError(error: unknown): number {
  return error instanceof DomainError ? httpStatusForDomainError(error) : 500;
}

/**
 * Trailers our servers add to a status made from a DomainError: its kind (so the message is
 * known to be written for a person) and its machine-readable details as JSON.
 */
export const ERROR_KIND_TRAILER = 'x-parlance-error-kind';
export const ERROR_DETAILS_TRAILER = 'x-parlance-error-details';

/** Messages for statuses whose own message is not fit for a person (transport, crash). */
export const GENERIC_MESSAGES: Record<DomainErrorKind, string> = {
  'invalid-argument': 'The request is not valid.',
  'not-found': 'Not found.',
  'already-exists': 'It already exists.',
  'permission-denied': 'You are not allowed to do this.',
  unauthenticated: 'Please sign in.',
  'failed-precondition': 'This cannot be done in the current state.',
  'resource-exhausted': 'Too many requests. Please try again later.',
  unavailable: 'The service is unavailable. Please try again later.',
  internal: 'Internal error.',
};

/** Kinds whose message the server wrote for the caller even without our trailer. */
const CALLER_FACING_KINDS = new Set<DomainErrorKind>([
  'invalid-argument',
  'not-found',
  'already-exists',
  'permission-denied',
  'unauthenticated',
  'failed-precondition',
  'resource-exhausted',
]);

/**
 * Server side: the status to send for an error thrown by a handler. A DomainError keeps its
 * message (it is meant for a person) and travels with its kind and details in trailers; an
 * internal DomainError or any other error becomes INTERNAL with a generic message, since its
 * text may hold anything. `expected` tells the caller whether to log it as a fault.
 */
export function statusForError(error: unknown): { status: Partial<StatusObject>; expected: boolean } {
  if (error instanceof DomainError && error.kind !== 'internal') {
    const metadata = new Metadata();
    metadata.set(ERROR_KIND_TRAILER, error.kind);
    if (Object.keys(error.details).length > 0) metadata.set(ERROR_DETAILS_TRAILER, JSON.stringify(error.details));
    return { status: { code: grpcCodeForKind(error.kind), details: error.message, metadata }, expected: true };
  }
  return { status: { code: status.INTERNAL, details: GENERIC_MESSAGES.internal }, expected: false };
}

/**
 * Client side: a failed call's ServiceError as a DomainError. The server's message is kept when it
 * was written for the caller (our DomainError trailer is present, or the code is a caller's
 * mistake such as NOT_FOUND); transport failures, crashes and unknown errors get a generic
 * message, and their original text stays on `cause` for logs only.
 */
export function domainErrorFromServiceError(error: ServiceError, method: string): GrpcCallError {
  const trailers = error.metadata instanceof Metadata ? error.metadata : new Metadata();
  const sentKind = stringValue(trailers.get(ERROR_KIND_TRAILER)[0]);
  const trusted = isKind(sentKind) && sentKind !== 'internal' && grpcCodeForKind(sentKind) === error.code;
  const kind = trusted ? sentKind : kindForGrpcCode(error.code);
  const written = trusted || CALLER_FACING_KINDS.has(kind);
  const message = written && error.details ? error.details : genericMessageFor(error.code, kind);
  return new GrpcCallError(kind, message, error.code, method, written ? parseDetails(trailers) : {}, error);
}

function genericMessageFor(code: status, kind: DomainErrorKind): string {
  if (code === status.DEADLINE_EXCEEDED) return 'The service took too long to answer. Please try again.';
  return GENERIC_MESSAGES[kind];
}

function parseDetails(trailers: Metadata): Record<string, unknown> {
  const raw = stringValue(trailers.get(ERROR_DETAILS_TRAILER)[0]);
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function stringValue(value: string | Buffer | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isKind(value: string | undefined): value is DomainErrorKind {
  return value !== undefined && Object.hasOwn(GRPC_CODE_BY_KIND, value);
}
