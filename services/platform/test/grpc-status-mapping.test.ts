import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DomainError, type DomainErrorKind } from '../src/errors.js';
import {
  domainErrorFromServiceError,
  ERROR_DETAILS_TRAILER,
  ERROR_KIND_TRAILER,
  grpcCodeForKind,
  GrpcCallError,
  httpStatusForDomainError,
  httpStatusForError,
  httpStatusForGrpcCode,
  kindForGrpcCode,
  statusForError,
} from '../src/grpc/status-mapping.js';

const METHOD = '/parlance.platform.v1.Probe/GetProbe';

function serviceError(code: status, details: string, trailers: Record<string, string> = {}): ServiceError {
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(trailers)) metadata.set(key, value);
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata });
}

describe('status mapping', () => {
  it('maps every domain error kind to its gRPC code and back', () => {
    const kinds: Array<[DomainErrorKind, status]> = [
      ['invalid-argument', status.INVALID_ARGUMENT],
      ['not-found', status.NOT_FOUND],
      ['already-exists', status.ALREADY_EXISTS],
      ['permission-denied', status.PERMISSION_DENIED],
      ['unauthenticated', status.UNAUTHENTICATED],
      ['failed-precondition', status.FAILED_PRECONDITION],
      ['resource-exhausted', status.RESOURCE_EXHAUSTED],
      ['unavailable', status.UNAVAILABLE],
      ['internal', status.INTERNAL],
    ];
    for (const [kind, code] of kinds) {
      expect(grpcCodeForKind(kind)).toBe(code);
      expect(kindForGrpcCode(code)).toBe(kind);
    }
  });

  it('maps gRPC codes to the HTTP statuses the gateway answers with', () => {
    expect(httpStatusForGrpcCode(status.INVALID_ARGUMENT)).toBe(400);
    expect(httpStatusForGrpcCode(status.UNAUTHENTICATED)).toBe(401);
    expect(httpStatusForGrpcCode(status.PERMISSION_DENIED)).toBe(403);
    expect(httpStatusForGrpcCode(status.NOT_FOUND)).toBe(404);
    expect(httpStatusForGrpcCode(status.ALREADY_EXISTS)).toBe(409);
    expect(httpStatusForGrpcCode(status.FAILED_PRECONDITION)).toBe(409);
    expect(httpStatusForGrpcCode(status.RESOURCE_EXHAUSTED)).toBe(429);
    expect(httpStatusForGrpcCode(status.DEADLINE_EXCEEDED)).toBe(504);
    expect(httpStatusForGrpcCode(status.UNAVAILABLE)).toBe(503);
    for (const code of [status.UNKNOWN, status.INTERNAL, status.UNIMPLEMENTED, status.DATA_LOSS]) {
      expect(httpStatusForGrpcCode(code)).toBe(500);
    }
  });

  it('gives local domain errors, returned call errors and other errors their HTTP status', () => {
    expect(httpStatusForDomainError(new DomainError('not-found', 'Team not found'))).toBe(404);
    expect(httpStatusForDomainError(new DomainError('failed-precondition', 'Team has activities'))).toBe(409);
    const timedOut = domainErrorFromServiceError(serviceError(status.DEADLINE_EXCEEDED, 'Deadline exceeded after 0.1s'), METHOD);
    expect(timedOut.kind).toBe('unavailable');
    expect(httpStatusForDomainError(timedOut)).toBe(504);
    expect(httpStatusForError(new Error('boom'))).toBe(500);
  });

  it('sends a domain error with its message, kind and details, and anything else as a generic INTERNAL', () => {
    const sent = statusForError(new DomainError('invalid-argument', 'Team name is required', { field: 'name' }));
    expect(sent.expected).toBe(true);
    expect(sent.status.code).toBe(status.INVALID_ARGUMENT);
    expect(sent.status.details).toBe('Team name is required');
    expect(sent.status.metadata?.get(ERROR_KIND_TRAILER)).toEqual(['invalid-argument']);
    expect(sent.status.metadata?.get(ERROR_DETAILS_TRAILER)).toEqual(['{"field":"name"}']);

    for (const error of [new Error('connect ECONNREFUSED 10.0.0.7:5432'), new DomainError('internal', 'row 17 is corrupt'), 'a string']) {
      const reply = statusForError(error);
      expect(reply.expected).toBe(false);
      expect(reply.status).toEqual({ code: status.INTERNAL, details: 'Internal error.' });
    }
  });

  it('turns a returned status back into a DomainError with the server message and details', () => {
    const error = domainErrorFromServiceError(
      serviceError(status.NOT_FOUND, 'Team not found', { [ERROR_KIND_TRAILER]: 'not-found', [ERROR_DETAILS_TRAILER]: '{"teamId":"t1"}' }),
      METHOD,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toBeInstanceOf(GrpcCallError);
    expect(error.kind).toBe('not-found');
    expect(error.message).toBe('Team not found');
    expect(error.details).toEqual({ teamId: 't1' });
    expect(error.method).toBe(METHOD);
  });

  it('keeps the message of a caller mistake from a server without our trailers', () => {
    const error = domainErrorFromServiceError(serviceError(status.PERMISSION_DENIED, 'Only admins may do this'), METHOD);
    expect(error.kind).toBe('permission-denied');
    expect(error.message).toBe('Only admins may do this');
  });

  it('keeps an unavailable message our server wrote, and hides transport details otherwise', () => {
    const written = domainErrorFromServiceError(
      serviceError(status.UNAVAILABLE, 'Speech engine is busy', { [ERROR_KIND_TRAILER]: 'unavailable' }),
      METHOD,
    );
    expect(written.message).toBe('Speech engine is busy');

    const transport = domainErrorFromServiceError(
      serviceError(status.UNAVAILABLE, 'No connection established. Last error: connect ECONNREFUSED 10.0.0.7:7001'),
      METHOD,
    );
    expect(transport.kind).toBe('unavailable');
    expect(transport.message).not.toContain('10.0.0.7');
    expect(transport.cause).toBeInstanceOf(Error);
  });

  it('does not leak the details of unknown and internal errors', () => {
    for (const code of [status.UNKNOWN, status.INTERNAL, status.DATA_LOSS, status.UNIMPLEMENTED]) {
      const error = domainErrorFromServiceError(serviceError(code, 'TypeError: cannot read secretKey of undefined'), METHOD);
      expect(error.kind).toBe('internal');
      expect(error.message).toBe('Internal error.');
      expect(error.details).toEqual({});
    }
  });

  it('ignores a kind trailer that contradicts the status code', () => {
    const error = domainErrorFromServiceError(serviceError(status.INTERNAL, 'stack trace', { [ERROR_KIND_TRAILER]: 'not-found' }), METHOD);
    expect(error.kind).toBe('internal');
    expect(error.message).toBe('Internal error.');
  });
});
