/** Run as a separate process by repository.int.test.ts: tries to open the repository in argv[2]. */
import { openRepository } from '../../../../src/bot/store/repository.js';
import { testRepoOptions } from './records.js';

try {
  const repo = await openRepository(testRepoOptions(process.argv[2]!));
  process.stdout.write('opened\n');
  await repo.close();
} catch (err) {
  process.stdout.write(`${(err as Error).name}: ${(err as Error).message}\n`);
}
