/**
 * The Slack stand-in continues after a restart from what saved() gave: a message ts or view id is
 * never handed out twice, and a view open before the restart is still updated by id and hash.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSlackApi, type FakeSlackApi } from '../../../src/stand-ins/fake-slack/fake-slack-api.js';

const running: FakeSlackApi[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((f) => f.stop()));
});

async function call(fake: FakeSlackApi, method: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await fetch(`${fake.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer xoxb-test' },
    body: JSON.stringify(args),
  });
  return (await res.json()) as Record<string, any>;
}

describe('the Slack stand-in, restarted from its saved state', () => {
  it('continues the ts and view sequences and keeps the views', async () => {
    const first = await startFakeSlackApi();
    running.push(first);
    const posted = await call(first, 'chat.postMessage', { channel: 'C1', text: 'before' });
    const opened = await call(first, 'views.open', {
      trigger_id: 't1',
      view: { type: 'modal', title: { type: 'plain_text', text: 'A' }, blocks: [] },
    });
    const saved = first.saved();

    const second = await startFakeSlackApi({ restore: JSON.parse(JSON.stringify(saved)) });
    running.push(second);
    const next = await call(second, 'chat.postMessage', { channel: 'C1', text: 'after' });
    expect(Number(next.ts)).toBeGreaterThan(Number(posted.ts));
    const updated = await call(second, 'views.update', {
      view_id: opened.view.id,
      hash: opened.view.hash,
      view: { type: 'modal', title: { type: 'plain_text', text: 'B' }, blocks: [] },
    });
    expect(updated).toMatchObject({ ok: true, view: { id: opened.view.id } });
    const another = await call(second, 'views.open', {
      trigger_id: 't2',
      view: { type: 'modal', title: { type: 'plain_text', text: 'C' }, blocks: [] },
    });
    expect(another.view.id).not.toBe(opened.view.id);
  });
});
