// `npm run demo`: plays story.ts with the real bot, sandbox and Slack stand-in, printing what each person
// sees. Exit 0 when every step happened, else 1 with the missing step and the bot's warnings.
import { playStory, StoryFailed } from './story.js';
import { createTranscript } from './transcript.js';
import { errorText } from '../../bot/domain/error-text.js';

async function main(): Promise<number> {
  const started = performance.now();
  const transcript = createTranscript((line) => process.stdout.write(`${line}\n`));
  try {
    await playStory(transcript);
  } catch (err) {
    process.stderr.write(`\ndemo failed: ${errorText(err)}\n`);
    if (err instanceof StoryFailed && err.logs.length > 0) {
      process.stderr.write('the bot logged (warn and error, last 20):\n');
      for (const line of err.logs.slice(-20)) process.stderr.write(`  ${line}\n`);
    }
    return 1;
  }
  process.stdout.write(`\n(played in ${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  return 0;
}

const USAGE =
  'usage: npm run demo   (plays the desk story on this machine and prints what each person sees in Slack; exit 0 when every step happened)';

if (['--help', '-h'].some((a) => process.argv.includes(a))) {
  console.log(USAGE);
} else {
  process.exitCode = await main();
}
