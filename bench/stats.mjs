// Order statistics for the benchmarks: medians and percentiles of a list of timings.

/** The q-quantile (0..1) of the values, by the nearest-rank method. */
export function quantile(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values) => quantile(values, 0.5);
export const p95 = (values) => quantile(values, 0.95);

export function fmtMs(ms) {
  return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
}
