// Summary statistics and plain-text formatting for the benchmark harness.
// Pure functions only: no I/O, no clocks.

/** Returns the median of `values` (mean of the middle two when even), or `undefined` for an empty list. */
export function median(values: ArrayLike<number>): number | undefined {
  return percentile(values, 50);
}

/**
 * Returns the `p`-th percentile (0-100) of `values` using linear interpolation between closest ranks,
 * or `undefined` for an empty list. Does not modify `values`.
 */
export function percentile(values: ArrayLike<number>, p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = Float64Array.from(values).sort();
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const low = sorted[lower] ?? 0;
  const high = sorted[upper] ?? low;
  return low + (high - low) * (rank - lower);
}

/** Formats a number with thousands separators and `digits` decimals; `undefined` becomes an em dash. */
export function formatNumber(value: number | undefined, digits = 0): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Formats `numerator / denominator` as `1.23x`, or an em dash when either side is missing or zero. */
export function formatRatio(numerator: number | undefined, denominator: number | undefined): string {
  if (numerator === undefined || denominator === undefined || denominator === 0) return '—';
  return `${(numerator / denominator).toFixed(2)}x`;
}

/** Column alignment for {@link formatTable}. */
export type Align = 'left' | 'right';

/**
 * Renders rows as a plain, space-padded text table with a dashed rule under the header.
 * The first column is left-aligned and the others right-aligned unless `align` says otherwise.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: Align[],
): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const alignOf = (column: number): Align => align?.[column] ?? (column === 0 ? 'left' : 'right');
  const renderRow = (row: readonly string[]): string =>
    widths
      .map((width, column) => {
        const cell = row[column] ?? '';
        return alignOf(column) === 'left' ? cell.padEnd(width) : cell.padStart(width);
      })
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [renderRow(header), rule, ...rows.map(renderRow)].join('\n');
}
