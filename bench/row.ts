/** One line of `npm run bench`: a measured figure next to the target it is held to. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean;
}

/** The nearest-rank percentile (q in 0..1) of the samples; NaN when there are none. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}
