/** Terminal formatting of figures: fixed decimals, "—" for a figure that is not defined. */

export function fixed(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
}

export function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((100 * part) / whole).toFixed(0)}% (${part}/${whole})`;
}

/** Columns padded to their widest cell; the first `leftColumns` are left-aligned, the rest right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], leftColumns = 1, indent = '  '): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all.map(
    (row) =>
      indent +
      row
        .map((cell, column) => (column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  ')
        .trimEnd(),
  );
}
