// App Home shows how long each request waiting for approvals has left; a decided one shows none.
import { describe, expect, it } from 'vitest';
import { homeView } from '../../../../src/bot/slack/home/home-view.js';
import { timeLeftText } from '../../../../src/bot/slack/home/time-left.js';
import { cryptoRequest, T0 } from '../support/approval-inputs.js';

const HOUR = 3_600_000;

function texts(view: ReturnType<typeof homeView>): string {
  return JSON.stringify(view.blocks);
}

describe('time left', () => {
  it.each([
    [T0 + 24 * HOUR, T0, '1 d left'],
    [T0 + 2 * HOUR + 5 * 60_000, T0, '2 h 5 min left'],
    [T0 + 90_000, T0, '1 min left'],
    [T0, T0, 'expiring now'],
    [T0, T0 + 1, 'expiring now'],
  ])('%s at %s reads %s', (expiresAt, now, text) => {
    expect(timeLeftText(expiresAt, now)).toBe(text);
  });

  it('on the cards waiting for me and the lines of my open requests, at the time of the view', () => {
    const waiting = cryptoRequest({ requestId: 'R1WAIT', expiresAt: T0 + 24 * HOUR });
    const mine = cryptoRequest({ requestId: 'R2MINE', expiresAt: T0 + 3 * HOUR });
    const view = homeView({
      userId: 'U0APP0001',
      waitingForMe: [waiting],
      myOpen: [mine],
      recent: [],
      isApprover: true,
      isRequester: true,
      at: T0 + 60 * 60_000 + 30 * 60_000,
      sandbox: false,
    });
    expect(texts(view)).toContain('0 of 2 approvals so far · :hourglass: 22 h 30 min left');
    expect(texts(view)).toContain('`R2MINE`');
    expect(texts(view)).toContain(':hourglass: 1 h 30 min left');
  });

  it('not for a decided request', () => {
    const decided = cryptoRequest({
      requestId: 'R3DONE',
      verdict: { outcome: 'rejected', by: 'U0APP0002', at: T0, reason: 'no' },
    });
    const view = homeView({
      userId: 'U0REQ0001',
      waitingForMe: [],
      myOpen: [decided],
      recent: [decided],
      isApprover: false,
      isRequester: true,
      at: T0,
      sandbox: false,
    });
    expect(texts(view)).not.toContain('left');
  });
});
