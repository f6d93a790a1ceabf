/**
 * How the Performance Analysis shows the recommendations (spec part 2 §2.11, §3 "Recommendation
 * result") and its load error (§8). The API computes every figure (§9 rules); this and advice.ts
 * only word them.
 */
import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { GetRecommendationsApiResponse } from '../../../lib/api/gateway-api.generated';
import { formatCount } from '../../../lib/format';
import type { ActivityType } from '../metrics';

export type RecommendationGroup = GetRecommendationsApiResponse[number];
export type TeamRecommendation = RecommendationGroup['teams'][number];
export type MemberRecommendation = TeamRecommendation['members'][number];
export type CriterionFailure = MemberRecommendation['criteria'][number];

/** 'calls' or 'meetings', for 'Successful calls' and 'Additional meetings needed'. */
export const activityNoun = (activityType: ActivityType): string => (activityType === 'meetings' ? 'meetings' : 'calls');

/** '45.5%'. */
export const formatRate = (value: number): string => `${value.toFixed(1)}%`;
/** '7.3' (scores run 0–10). */
export const formatScore = (value: number): string => value.toFixed(1);
/** 'N/A' when no scored activity had a script. */
export const formatScriptMatch = (value: number | null): string => (value === null ? 'N/A' : formatRate(value));
/** A count, or '-' where the API says none can be worked out (a conversion rate of 0). */
export const formatNeeded = (value: number | '-'): string => (value === '-' ? '-' : formatCount(value));
/** The on-target status in words, so it never rests on colour alone. */
export const targetStatus = (onTarget: boolean): string => (onTarget ? 'On target' : 'Below target');

/** A member's or team's criteria, the most failed first (the API sends them so; ties keep its order). */
export const worstFirst = <T extends { failureRate: number }>(criteria: readonly T[]): T[] => [...criteria].sort((a, b) => b.failureRate - a.failureRate);

const nonBlank = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * §8: 'Error loading recommendations: {message}', where the message is the server's error field
 * (a list is joined by ', '), else its message, else the failure's own message, else 'Unknown error'.
 */
export function recommendationsError(error: FetchBaseQueryError | SerializedError | undefined): string {
  return `Error loading recommendations: ${errorDetail(error) ?? 'Unknown error'}`;
}

function errorDetail(error: FetchBaseQueryError | SerializedError | undefined): string | undefined {
  if (!error) return undefined;
  if (!('status' in error)) return nonBlank(error.message) ? error.message : undefined;
  const body = ('data' in error ? error.data : undefined) as { error?: unknown; message?: unknown } | null | undefined;
  const field = body?.error;
  if (Array.isArray(field)) {
    const parts = field.filter((part) => part !== null && part !== undefined).map(String).filter(nonBlank);
    if (parts.length > 0) return parts.join(', ');
  }
  if (nonBlank(field)) return field;
  if (nonBlank(body?.message)) return body.message;
  // Network, parsing and time-out failures carry their own sentence in `error`.
  return 'error' in error && nonBlank(error.error) ? error.error : undefined;
}
