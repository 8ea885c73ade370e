/**
 * How large a bench makes its world. `full` is what `npm run bench` measures; `smoke` runs every
 * path of every group on tiny sizes (`npm run bench -- --smoke`, and test/bench/smoke.int.test.ts), so
 * a group that no longer runs is noticed; its figures mean nothing and are not judged.
 */
export type Scale = 'full' | 'smoke';

export function sized(scale: Scale, full: number, smoke: number): number {
  return scale === 'full' ? full : smoke;
}
