/**
 * The embedded default survives a restart (issue 21, section 1): a withdrawal approved twice and
 * sent to the sandbox, the whole preview stopped, and a new one started in the same process on the
 * same data folder. The request, its message and thread in #desk-approvals, and App Home continue;
 * the exchange still has the withdrawal (no `not_found` polling), and moving the sandbox's time on
 * completes it in place. `fresh` starts over.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalDeskMessage, Snapshot } from '../../../src/stand-ins/local-desk/protocol.js';
import { ROUTES } from '../../../src/stand-ins/local-desk/protocol.js';
import { SANDBOX_FILE_NAME, SLACK_FILE_NAME } from '../../../src/stand-ins/preview/preview-files.js';
import { SANDBOX_TIMINGS } from '../../../src/stand-ins/sandbox/index.js';
import { ACTION } from '../../../src/bot/slack/kit/slack-ids.js';
import { said, startTestLocalDesk, WHO, type TestLocalDesk } from './support/desk.js';
import { askWithdrawal, closeWaitingView } from './support/desk-forms.js';

const dataDir = mkdtempSync(join(tmpdir(), 'desk-restart-'));
const running: TestLocalDesk[] = [];
afterAll(async () => {
  for (const d of running.splice(0)) await d.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(fresh = false): Promise<TestLocalDesk> {
  const d = await startTestLocalDesk({ dataDir, fresh });
  running.push(d);
  return d;
}

async function stop(d: TestLocalDesk): Promise<void> {
  running.splice(running.indexOf(d), 1);
  await d.stop();
}

const approve = (d: TestLocalDesk, as: string, m: LocalDeskMessage) =>
  d.api('action', {
    as,
    container: { type: 'message', channel: m.channel, ts: m.ts },
    action: { action_id: ACTION.approve },
  });
const thread = (s: Snapshot, ts: string) =>
  s.messages
    .filter((m) => m.threadTs === ts)
    .map(said)
    .join('\n');
const homeText = (s: Snapshot) => JSON.stringify(s.home ?? {});

describe('the local preview, stopped and started again on the same data', () => {
  let request: LocalDeskMessage;
  let stoppedAt: number;

  it('first run: a 0.07 BTC withdrawal, approved twice, is sent to the sandbox; the trader opens App Home', async () => {
    const d = await start();
    request = await askWithdrawal(d, '0.07');
    await closeWaitingView(d);
    await approve(d, WHO.ana, request);
    await approve(d, WHO.ben, request);
    await d.until(
      WHO.ana,
      (s) => thread(s, request.ts).includes('Sent to the exchange'),
      'the withdrawal sent (thread)',
    );
    await d.api('home', { as: WHO.trader });
    await d.until(
      WHO.trader,
      (s) => homeText(s).includes('Your open requests (1)') && homeText(s).includes('0.07'),
      "the trader's App Home with the withdrawal open",
    );
    stoppedAt = (await d.get(ROUTES.sandbox)).json.now as number;
    await stop(d);
    expect(readdirSync(dataDir)).toEqual(
      expect.arrayContaining([SANDBOX_FILE_NAME, SLACK_FILE_NAME, 'audit.jsonl', 'requests.json']),
    );
  }, 30_000);

  it('second run: the request, its thread and App Home are there; the exchange knows the withdrawal, and it completes in place', async () => {
    const d = await start();
    const ana = d.snapshot(WHO.ana);
    expect(ana.messages.find((m) => m.ts === request.ts && m.channel === WHO.approvalChannel)).toBeDefined();
    expect(thread(ana, request.ts)).toContain('Sent to the exchange');
    expect(homeText(d.snapshot(WHO.trader))).toContain('Your open requests (1)');
    expect(ana.undrawn).toEqual([]);
    // The sandbox's clock continues from where it stopped (it never goes back).
    expect((await d.get(ROUTES.sandbox)).json.now).toBeGreaterThanOrEqual(stoppedAt);

    await d.post(`${ROUTES.sandbox}/advance`, { ms: SANDBOX_TIMINGS.WITHDRAWAL_TIMELINE.at(-1)!.afterMs });
    const done = await d.until(
      WHO.ben,
      (s) => thread(s, request.ts).includes('*Completed.*'),
      'the completed withdrawal in the thread',
      15_000,
    );
    expect(done.messages.find((m) => m.ts === request.ts)?.edited).toBe(true);
    expect(done.undrawn).toEqual([]);
    // App Home follows: the request is no longer open.
    await d.api('home', { as: WHO.trader });
    await d.until(
      WHO.trader,
      (s) => homeText(s).includes('Your open requests (0)'),
      "the trader's App Home with nothing open",
    );
    expect(d.logs.join('\n')).not.toMatch(/not_found/);
    await stop(d);
  }, 30_000);

  it('--fresh: the preview starts over, with nothing of the earlier runs', async () => {
    const d = await start(true);
    expect(d.preview.erased).toEqual(expect.arrayContaining([SANDBOX_FILE_NAME, SLACK_FILE_NAME, 'audit.jsonl']));
    const s = d.snapshot(WHO.ana);
    expect(s.messages.filter((m) => m.channel === WHO.approvalChannel)).toEqual([]);
    expect(s.home).toBeUndefined();
    expect(d.bot.sandbox!.control.withdrawals()).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ amount: '0.07' })]),
    );
    await stop(d);
  }, 30_000);
});
