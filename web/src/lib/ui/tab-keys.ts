/**
 * Where a key press moves the selection of a tab list (the WAI-ARIA tabs pattern): the arrow keys
 * along the list step and wrap around (a vertical list takes Up and Down as well as Left and
 * Right), Home and End go to the ends. Undefined for any other key.
 */
export function tabIndexAfterKey(key: string, index: number, count: number, orientation: 'horizontal' | 'vertical' = 'horizontal'): number | undefined {
  const last = count - 1;
  const vertical = orientation === 'vertical';
  if (key === 'ArrowRight' || (vertical && key === 'ArrowDown')) return index >= last ? 0 : index + 1;
  if (key === 'ArrowLeft' || (vertical && key === 'ArrowUp')) return index <= 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return undefined;
}
