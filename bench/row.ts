/** One line of `npm run bench`: a measured figure next to the target it is held to. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean;
}
