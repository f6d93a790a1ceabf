import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError } from '@parlance/platform/errors';
import { httpStatusForDomainError } from '@parlance/platform/grpc/status-mapping';
import { errorBody } from '../schemas/error.schema.js';

/**
 * The one place API errors become responses: domain errors (including those that crossed gRPC)
 * keep their message and get their mapped status; validation errors say which field is wrong;
 * anything else is logged and answered with a generic 500 so internals never leak.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | DomainError | Error, request, reply) => {
    if (error instanceof DomainError) {
      const status = httpStatusForDomainError(error);
      if (status >= 500) request.log.error({ err: error }, 'service error');
      return reply.status(status).send(errorBody(error.message));
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      return reply.status(400).send(errorBody(validationMessage(fastifyError)));
    }
    if (fastifyError.statusCode && fastifyError.statusCode < 500) {
      return reply.status(fastifyError.statusCode).send(errorBody(fastifyError.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('Something went wrong on our side. Please try again.'));
  });
}

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const field = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : '';
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  const where = error.validationContext ?? 'request';
  if (missing) return `Invalid ${where}: ${missing} is required`;
  return `Invalid ${where}: ${field ? `${field} ` : ''}${first.message ?? 'is not valid'}`;
}
