import { ConfigError } from '../config.js';

/** The problems a config loader reports (none when it succeeds); any other error is rethrown. */
export function configProblems(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
