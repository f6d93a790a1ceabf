/**
 * Whether a value can be a Postgres uuid. An id from a request or an event is checked before it
 * reaches a uuid column: there a malformed one is a SQL error, where the caller means "not found".
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
