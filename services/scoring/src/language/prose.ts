/** Small helpers for the sentences the offline evaluator writes (summaries, verdicts, reasons). */

/** "a", "a and b", "a, b and c"; empty for none. */
export function list(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "call" → "Call". */
export const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** "Greets the caller" → "greets the caller", "A demo" → "a demo"; an acronym or "I" stays ("SMS", "I"). */
export const lowerFirst = (text: string) => (/^(?:[A-Z][a-z]|A\s)/.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text);
