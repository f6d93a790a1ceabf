/** A value as a row of a `jsonb_to_recordset(…)` parameter carries it. */

/** JSON has no NaN or infinities; jsonb_to_recordset reads a double back from their names. */
export const jsonValue = (value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : (value ?? null));
