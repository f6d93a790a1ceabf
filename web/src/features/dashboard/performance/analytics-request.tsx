import { useCallback, useEffect, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useGetAnalyticsQuery, type GetAnalyticsApiArg, type GetAnalyticsApiResponse } from '../../../lib/api/gateway-api.generated';

/** Where one analytics request stands: its answer (undefined until there is one, or on error) and whether it is loading. */
export type AnalyticsAnswer = { answer: GetAnalyticsApiResponse | undefined; loading: boolean };

type OnAnswer = (key: string, answer: AnalyticsAnswer | undefined) => void;

/**
 * One analytics request. The screen asks as many as it has filter groups (two each), and a hook
 * cannot be called a varying number of times, so each request is a component of its own that
 * hands its answer up under `requestKey`. Nothing is asked while `arg` is undefined.
 */
export function AnalyticsRequest({ requestKey, arg, onAnswer }: { requestKey: string; arg: GetAnalyticsApiArg | undefined; onAnswer: OnAnswer }) {
  const { data, isFetching, isError } = useGetAnalyticsQuery(arg ?? skipToken);
  // Spec part 2 §8: a failed performance fetch shows as empty data.
  const answer = arg && !isError ? data : undefined;
  useEffect(() => onAnswer(requestKey, { answer, loading: isFetching }), [requestKey, answer, isFetching, onAnswer]);
  useEffect(() => () => onAnswer(requestKey, undefined), [requestKey, onAnswer]);
  return null;
}

/** The answers of the screen's AnalyticsRequests, by request key. */
export function useAnalyticsAnswers() {
  const [answers, setAnswers] = useState<Readonly<Record<string, AnalyticsAnswer>>>({});
  const onAnswer = useCallback<OnAnswer>((key, next) => {
    setAnswers((current) => {
      const now = current[key];
      if (next === undefined) {
        if (!now) return current;
        const { [key]: _gone, ...rest } = current;
        return rest;
      }
      return now && now.answer === next.answer && now.loading === next.loading ? current : { ...current, [key]: next };
    });
  }, []);
  return { answers, onAnswer };
}
