// Small numeric helpers for the bench: the median, and the units the tables print.

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Bytes as KB with one decimal ("12.3"). */
export function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

/** How many times `other` is `ours` ("4.2x"); "-" when either side is missing, "=" or "inf" when ours is zero. */
export function ratio(other: number, ours: number): string {
  if (!Number.isFinite(other) || !Number.isFinite(ours)) return '-';
  if (ours === 0) return other === 0 ? '=' : 'inf';
  return `${(other / ours).toFixed(1)}x`;
}
