/**
 * What travels in gRPC metadata besides the request: the tenant (company id), the acting user,
 * and the W3C trace context. The gateway derives company and user from the session; every call
 * after that carries them here, and every query is scoped by the company id.
 */
import type { Metadata } from '@grpc/grpc-js';
import type { Context } from '@opentelemetry/api';
import { extractTraceContext, injectTraceContext } from '../telemetry.js';

export const COMPANY_ID_METADATA = 'x-parlance-company-id';
export const USER_ID_METADATA = 'x-parlance-user-id';

export interface CallIdentity {
  companyId?: string;
  userId?: string;
}

/** Sets company and user id on `metadata` (replacing earlier values); absent ones are left out. */
export function writeIdentity(metadata: Metadata, identity: CallIdentity): Metadata {
  if (identity.companyId) metadata.set(COMPANY_ID_METADATA, identity.companyId);
  if (identity.userId) metadata.set(USER_ID_METADATA, identity.userId);
  return metadata;
}

export function readIdentity(metadata: Metadata): CallIdentity {
  const identity: CallIdentity = {};
  const companyId = firstString(metadata, COMPANY_ID_METADATA);
  const userId = firstString(metadata, USER_ID_METADATA);
  if (companyId) identity.companyId = companyId;
  if (userId) identity.userId = userId;
  return identity;
}

/** Writes the trace context (`from`, by default the active one) into `metadata`. */
export function injectTraceMetadata(metadata: Metadata, from?: Context): Metadata {
  const carrier = injectTraceContext({}, from);
  for (const [key, value] of Object.entries(carrier)) metadata.set(key, value);
  return metadata;
}

/** Reads the caller's trace context from `metadata`; use it as the parent of the server span. */
export function extractTraceMetadata(metadata: Metadata): Context {
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.getMap())) {
    if (typeof value === 'string') carrier[key] = value;
  }
  return extractTraceContext(carrier);
}

function firstString(metadata: Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}
