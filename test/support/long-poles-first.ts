/**
 * vitest's order (its group order, then the slowest first by its cache of the last run), except that
 * the long poles start first in their group. Without a cache (CI's fresh clone, a first run) vitest
 * starts the largest files first, and the bench smoke, a small file, ran alone for a minute at the end.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The slowest files of the integration and browser group, measured (README, Tests), slowest first. */
const LONG_POLES = [
  'test/bench/smoke.int.test.ts',
  'test/bot/store/lock.int.test.ts',
  'test/browser/desk-story.test.ts',
  'test/browser/restart.test.ts',
  'test/browser/local-desk-page.test.ts',
  'test/stand-ins/demo/story.int.test.ts',
  'test/stand-ins/local-desk/npm-start.int.test.ts',
];

const rank = (spec: TestSpecification): number => {
  const at = LONG_POLES.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
  return at === -1 ? LONG_POLES.length : at;
};

export default class LongPolesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const order = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // Array sort is stable: within a group and a rank, vitest's own order stays.
    return (await super.sort(files)).sort((a, b) => order(a) - order(b) || rank(a) - rank(b));
  }
}
