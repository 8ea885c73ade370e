// A duration in the policy's words ("15 min", "24 h", "7 days"), for its description and its problems.
export function durationText(ms: number): string {
  const DAY = 86_400_000;
  if (ms % DAY === 0 && ms > DAY) return `${ms / DAY} days`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
