/**
 * The context of the gRPC request being handled, available anywhere below a handler (repositories,
 * outgoing gRPC calls) without passing it down by hand. grpc-server.ts sets it for every call;
 * grpc-client.ts reads it so an outgoing call carries the same company and user and never
 * outlives the incoming call's deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '../errors.js';

export interface RequestContext {
  companyId?: string;
  userId?: string;
  /** When the caller stops waiting; absent when the caller set no deadline. */
  deadline?: Date;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** The current request's context; `{}` outside a request. */
export function requestContext(): RequestContext {
  return storage.getStore() ?? {};
}

/** The calling company, for methods that act on one tenant's data. */
export function requireCompanyId(): string {
  const { companyId } = requestContext();
  if (!companyId) throw new DomainError('unauthenticated', 'The call carries no company.');
  return companyId;
}

export function runWithRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}
