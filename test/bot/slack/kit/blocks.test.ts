/** The pure Block Kit builders: structure, escaping of user text, and Block Kit's limits. */
import { pendingList } from '../../../../src/bot/slack/listings/pending-list.js';
import { balance } from '../../../../src/bot/exchange/adapter/lookup-records.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Balance } from '../../../../src/bot/exchange/schemas.js';
import {
  approvalMessage,
  APPROVAL_BUTTON,
  bpsText,
  parseApprovalButtonValue,
  type ApprovalMessageInput,
} from '../../../../src/bot/slack/approvals/approval-message.js';
import { balanceRow, balancesMessage } from '../../../../src/bot/slack/listings/balances-table.js';
import {
  formatAmount,
  maskAccount,
  relativeTime,
  shortAddress,
  slackDate,
  utcText,
  zonedText,
} from '../../../../src/bot/slack/kit/format.js';
import { homeView } from '../../../../src/bot/slack/home/home-view.js';
import { cutMrkdwn, message, modal, section } from '../../../../src/bot/slack/kit/blocks.js';
import { LIMITS } from '../../../../src/bot/slack/kit/limits.js';
import { decodeMore, encodeMore, listPage, withdrawalLine } from '../../../../src/bot/slack/listings/listing-lines.js';
import { refusalReply, refusalText } from '../../../../src/bot/slack/kit/refusal-text.js';
import { verdictDm } from '../../../../src/bot/slack/approvals/requester-dms.js';
import { cutPlain, escapeMrkdwn, link } from '../../../../src/bot/slack/kit/mrkdwn.js';
import { statusLineFor, threadPost } from '../../../../src/bot/slack/approvals/thread-status.js';
import { ACTION, BLOCK } from '../../../../src/bot/slack/kit/slack-ids.js';
import { limitViolations, viewViolations } from '../support/block-limits.js';
import { cryptoRequest, T0 } from '../support/approval-inputs.js';

type Block = {
  type: string;
  block_id?: string;
  elements?: { type: string; action_id?: string; value?: string; text?: { text: string } }[];
};

/** Every mrkdwn text object anywhere in the blocks. */
function mrkdwnTexts(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(mrkdwnTexts);
  if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    const own = o.type === 'mrkdwn' && typeof o.text === 'string' ? [o.text] : [];
    return [...own, ...Object.values(o).flatMap(mrkdwnTexts)];
  }
  return [];
}

const actionsOf = (blocks: unknown[]) => (blocks as Block[]).filter((b) => b.type === 'actions');

describe('escapeMrkdwn', () => {
  it('escapes &, < and > so user text cannot ping, mention or link', () => {
    expect(escapeMrkdwn('<!channel> pay')).toBe('&lt;!channel&gt; pay');
    expect(escapeMrkdwn('<http://evil.example|your bank>')).toBe('&lt;http://evil.example|your bank&gt;');
    expect(escapeMrkdwn('<@U123> & co')).toBe('&lt;@U123&gt; &amp; co');
  });

  it('cuts to the limit with an ellipsis, never inside an entity or a surrogate pair', () => {
    expect(escapeMrkdwn('a'.repeat(10), 5)).toBe('aaaa…');
    expect(escapeMrkdwn('abc<def', 6)).toBe('abc…');
    expect(cutPlain('ab😀cd', 4)).toBe('ab…');
  });

  it('property: output within the limit, entities whole, nothing raw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 1, max: 120 }), (s, max) => {
        const out = escapeMrkdwn(s, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out).not.toMatch(/[<>]/);
        expect(out.replace(/&(amp|lt|gt);/g, '')).not.toContain('&');
      }),
      { numRuns: 300 },
    );
  });

  it('cutMrkdwn does not leave half a token or entity', () => {
    expect(cutMrkdwn('see <@U0APP0001> now', 10)).toBe('see …');
    expect(cutMrkdwn('a &amp; b', 4)).toBe('a …');
  });

  it('link() refuses URLs that could break out of the link syntax', () => {
    expect(link('https://explorer.example/tx/1', 'explorer')).toBe('<https://explorer.example/tx/1|explorer>');
    expect(link('https://x.example/a|<!channel>', 'explorer')).toBe('explorer');
    expect(link('javascript:alert(1)', 'x')).toBe('x');
  });
});

describe('format', () => {
  it('groups amounts on the string, keeping every decimal', () => {
    expect(formatAmount('1234567.12345678', 'BTC')).toBe('1,234,567.12345678 BTC');
    expect(formatAmount('-1000')).toBe('-1,000');
    // Not a decimal (the exchange's text): shown as it is, escaped, so it can mention nobody.
    expect(formatAmount('<!channel> 12', 'USD')).toBe('&lt;!channel&gt; 12 USD');
    expect(formatAmount('12')).toBe('12');
  });
  it('shortens addresses and masks accounts', () => {
    expect(shortAddress('0x1234567890abcdef')).toBe('0x1234…cdef');
    expect(shortAddress('short')).toBe('short');
    expect(maskAccount('123 456 789')).toBe('****6789');
  });
  it('writes times as Slack date tokens with a UTC fallback, and zone offsets when known', () => {
    expect(slackDate(T0)).toBe(`<!date^${T0 / 1000}^{date_short_pretty} {time}|2024-05-01 14:03 UTC>`);
    expect(utcText(T0)).toBe('2024-05-01 14:03 UTC');
    expect(zonedText(T0, 8 * 3600)).toBe('2024-05-01 22:03 UTC+8');
    expect(zonedText(T0, -(5 * 3600 + 1800))).toBe('2024-05-01 08:33 UTC-5:30');
    expect(relativeTime(T0 + 2 * 3600_000 + 5 * 60_000, T0)).toBe('in 2 h 5 min');
    expect(relativeTime(T0 - 3 * 60_000, T0)).toBe('3 min ago');
  });
});

describe('approval message', () => {
  it('carries the snapshot hash on the buttons when given, and reads it back', () => {
    const msg = approvalMessage(cryptoRequest({ snapshotHash: 'ab12' }));
    const value = actionsOf(msg.blocks)[0]?.elements?.[0]?.value;
    expect(value).toBe('R7K2QX:ab12');
    expect(parseApprovalButtonValue(value)).toEqual({ requestId: 'R7K2QX', snapshotHash: 'ab12' });
    expect(parseApprovalButtonValue('R7K2QX')).toEqual({ requestId: 'R7K2QX' });
    expect(parseApprovalButtonValue('<!channel>')).toBeUndefined();
  });

  it('has buttons labelled exactly Approve, Reject and Cancel carrying the request id', () => {
    const msg = approvalMessage(cryptoRequest());
    const [row] = actionsOf(msg.blocks);
    expect(row?.block_id).toBe(BLOCK.approvalActions);
    expect(row?.elements?.map((e) => e.text?.text)).toEqual(['Approve', 'Reject', 'Cancel']);
    expect(APPROVAL_BUTTON).toEqual({ approve: 'Approve', reject: 'Reject', cancel: 'Cancel' });
    expect(row?.elements?.map((e) => e.action_id)).toEqual([ACTION.approve, ACTION.reject, ACTION.cancel]);
    expect(row?.elements?.every((e) => e.value === 'R7K2QX')).toBe(true);
  });

  it('shows what, who, amounts, fee, total and the full destination address', () => {
    const text = JSON.stringify(approvalMessage(cryptoRequest()).blocks);
    for (const part of [
      '<@U0REQ0001>',
      '1.5 BTC',
      '0.0005 BTC',
      '1.5005 BTC',
      'Cold wallet',
      '0x1234567890abcdef1234567890abcdef12345678',
      'R7K2QX',
    ]) {
      expect(text).toContain(part);
    }
  });

  it('counts approvals by name: "1 of 2 approvals: @name"', () => {
    const msg = approvalMessage(cryptoRequest({ approvals: [{ userId: 'U0APP0001', at: T0 + 1 }] }));
    const progress = (msg.blocks as { block_id?: string; elements?: { text: string }[] }[]).find(
      (b) => b.block_id === BLOCK.approvalProgress,
    );
    expect(progress?.elements?.[0]?.text).toBe('1 of 2 approvals: <@U0APP0001>');
    expect(msg.text).toContain('1 of 2 approvals');
  });

  it('once decided has no buttons and shows the outcome, who and when', () => {
    const rejected = approvalMessage(
      cryptoRequest({
        verdict: { outcome: 'rejected', by: 'U0APP0002', at: T0 + 60_000, reason: 'Wrong <!here> address' },
      }),
    );
    expect(actionsOf(rejected.blocks)).toEqual([]);
    const outcome = JSON.stringify(rejected.blocks.find((b) => (b as Block).block_id === BLOCK.approvalOutcome));
    expect(outcome).toContain('Rejected');
    expect(outcome).toContain('<@U0APP0002>');
    expect(outcome).toContain(`<!date^${(T0 + 60_000) / 1000}`);
    expect(outcome).toContain('Wrong &lt;!here&gt; address');

    const approved = approvalMessage(
      cryptoRequest({
        approvals: [
          { userId: 'U0APP0001', at: T0 },
          { userId: 'U0APP0002', at: T0 },
        ],
        verdict: { outcome: 'approved', at: T0 + 1 },
        status: statusLineFor({ type: 'completed', at: T0 + 2, explorerUrl: 'https://explorer.example/tx/ab' }),
      }),
    );
    expect(actionsOf(approved.blocks)).toEqual([]);
    const text = JSON.stringify(approved.blocks);
    expect(text).toContain('Approved by <@U0APP0001> and <@U0APP0002>');
    expect(text).toContain('<https://explorer.example/tx/ab|explorer>');
  });

  it('carries a SANDBOX banner only against the sandbox', () => {
    const banner = (sandbox: boolean) =>
      approvalMessage(cryptoRequest({ sandbox })).blocks.filter((b) => (b as Block).block_id === BLOCK.sandboxBanner);
    expect(banner(true)).toHaveLength(1);
    expect(banner(false)).toHaveLength(0);
    expect(approvalMessage(cryptoRequest({ sandbox: true })).text).toMatch(/^\[SANDBOX\]/);
  });

  it('escapes every piece of user text and stays within Block Kit limits', () => {
    const evil = '<!channel> <http://evil.example|click> & <@U0APP0001> ';
    const msg = approvalMessage(
      cryptoRequest({
        request: {
          kind: 'crypto_withdrawal',
          asset: 'BTC',
          network: evil,
          amount: '1',
          fee: '0',
          total: '1',
          destination: { label: evil.repeat(10), address: evil, addressTag: evil },
          note: evil.repeat(200),
          purpose: evil,
        },
      }),
    );
    // mrkdwn is where Slack parses <…>; plain_text (header, buttons) shows it literally.
    const mrkdwn = [msg.text, ...mrkdwnTexts(msg.blocks)].join('\n');
    expect(mrkdwn).toContain('&lt;!channel&gt;');
    expect(mrkdwn).not.toContain('<!channel>');
    expect(mrkdwn).not.toContain('<http://evil');
    expect(mrkdwn).not.toContain('<@U0APP0001>');
    expect(limitViolations(msg.blocks)).toEqual([]);
  });

  it("shows a trade's indicative price, limit with slippage and quote expiry", () => {
    const msg = approvalMessage(
      cryptoRequest({
        request: {
          kind: 'trade',
          symbol: 'BTC-SGD',
          side: 'buy',
          quantity: '0.5',
          quantityCurrency: 'BTC',
          paymentMethod: 'user_balance',
          limitPrice: '90450',
          slippageBps: 50,
          quote: { price: '90000', expiresAt: T0 + 2_500 },
        },
      }),
    );
    const text = JSON.stringify(msg.blocks);
    expect(text).toContain('Trade · Buy 0.5 BTC with SGD');
    expect(text).toContain('90,000 SGD');
    expect(text).toContain('at most 90,450 SGD (0.5% from indicative)');
    expect(text).toContain(`<!date^${Math.floor((T0 + 2_500) / 1000)}^{time_secs}`);
    expect(bpsText(125)).toBe('1.25%');
    // No quantity currency: the reference's default, the counter currency for a buy.
    const byDefault = approvalMessage(
      cryptoRequest({
        request: {
          kind: 'trade',
          symbol: 'BTC-SGD',
          side: 'buy',
          quantity: '10000',
          quantityCurrency: null,
          paymentMethod: 'user_balance',
          limitPrice: '1',
          quote: { price: '1', expiresAt: T0 },
        },
      }),
    );
    expect(JSON.stringify(byDefault.blocks)).toContain('Trade · Buy BTC for 10,000 SGD');
    expect(bpsText(100)).toBe('1%');
  });
});

describe('thread posts and notices', () => {
  it('says a re-quote within the limit in plain words', () => {
    const post = threadPost({
      type: 'requoted',
      at: T0,
      pair: 'BTC-SGD',
      oldPrice: '90000',
      newPrice: '90100',
      limitPrice: '90450',
      counter: 'SGD',
    });
    expect(post.text).toContain('Quote expired, re-quoted BTC-SGD at *90,100 SGD*');
    expect(post.text).toContain('within your limit of 90,450 SGD: ordering');
  });

  it('escapes exchange messages in failures', () => {
    const post = threadPost({
      type: 'failed',
      at: T0,
      message: '<!channel> refused',
      hint: 'Complete the <recipient> details',
    });
    expect(JSON.stringify(post)).not.toContain('<!channel>');
    expect(JSON.stringify(post)).toContain('&lt;recipient&gt;');
  });

  it('tells the requester who decided, and why a click was refused', () => {
    const dm = verdictDm({
      requestId: 'R1',
      request: cryptoRequest().request,
      verdict: { outcome: 'rejected', by: 'U0APP0001', at: T0, reason: 'no' },
    });
    expect(dm.text).toContain('rejected by <@U0APP0001>');
    expect(refusalText('not_desk_member')).toBe("This is for the desk's members only.");
    expect(refusalReply('You requested this, so your approval cannot count. <!here>')).toBe(
      ':no_entry_sign: You requested this, so your approval cannot count. &lt;!here&gt;',
    );
  });
});

describe('balances', () => {
  it('totals regular + both locked parts and ignores the deprecated locked', () => {
    const item: Balance = {
      currency: 'ETH',
      regular: '0.1',
      locked: '5',
      locked_balance: { orders: '0.2', alternative_products: '0.3' },
    };
    const row = balanceRow(balance(item));
    const msg = balancesMessage({ rows: [row], at: T0, sandbox: true });
    const text = JSON.stringify(msg.blocks);
    expect(text).toMatch(/ETH +0\.1 +0\.2 +0\.3 +0\.6/);
    expect(text).not.toMatch(/\b5\b/);
    expect(text).toContain('SANDBOX');
  });

  it('splits a long table over several sections within the limit', () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({
      currency: `A${i}`,
      available: '1234567.12345678',
      lockedOrders: '1',
      lockedOther: '2',
    }));
    const msg = balancesMessage({ rows, at: T0, sandbox: false });
    expect(limitViolations(msg.blocks)).toEqual([]);
    expect(msg.blocks.filter((b) => b.type === 'section').length).toBeGreaterThan(1);
  });
});

describe('listings', () => {
  it('round-trips the More cursor and refuses anything else', () => {
    const value = encodeMore({ list: 'withdrawals', offset: 10 });
    expect(decodeMore(value)).toEqual({ list: 'withdrawals', offset: 10 });
    expect(decodeMore('{"l":"secrets","o":0}')).toBeUndefined();
    expect(decodeMore('{"l":"orders","o":-1}')).toBeUndefined();
    expect(decodeMore('not json')).toBeUndefined();
  });

  it('pages with a More button only when there is more', () => {
    const line = withdrawalLine({
      id: 'x',
      createdAt: T0,
      status: 'completed',
      amount: '1',
      asset: 'BTC',
      address: null,
      label: null,
      linkExplorer: null,
      travelRuleStatus: null,
    });
    const withMore = listPage({
      title: 'W',
      lines: [line],
      offset: 0,
      more: { list: 'withdrawals', offset: 10 },
      emptyText: 'none',
      at: T0,
      sandbox: false,
    });
    expect(actionsOf(withMore.blocks)[0]?.elements?.[0]).toMatchObject({
      action_id: ACTION.listMore,
      text: { text: 'More' },
    });
    const last = listPage({ title: 'W', lines: [line], offset: 10, emptyText: 'none', at: T0, sandbox: false });
    expect(actionsOf(last.blocks)).toEqual([]);
  });

  it('keeps a huge listing inside the message limits', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(300)}`);
    const msg = listPage({
      title: 'W',
      lines,
      offset: 0,
      more: { list: 'orders', offset: 400 },
      emptyText: '',
      at: T0,
      sandbox: false,
    });
    expect(limitViolations(msg.blocks)).toEqual([]);
    expect(actionsOf(msg.blocks)).toHaveLength(1);
  });
});

describe('App Home', () => {
  it('shows requests waiting for me with the approval buttons', () => {
    const r = cryptoRequest();
    const view = homeView({
      userId: 'U0APP0001',
      waitingForMe: [r],
      myOpen: [],
      recent: [{ ...r, verdict: { outcome: 'expired', at: T0 } }],
      isApprover: true,
      isRequester: false,
      at: T0,
      sandbox: false,
    });
    expect(view.type).toBe('home');
    const rows = actionsOf(view.blocks);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.elements?.map((e) => e.text?.text)).toEqual(['Approve', 'Reject', 'Cancel']);
    expect(JSON.stringify(view.blocks)).toContain('expired');
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('says what it left out: open requests past 15, and that older finished ones exist', () => {
    const mine = Array.from({ length: 20 }, (_, i) => cryptoRequest({ requestId: `RMINE${i}` }));
    const recent = Array.from({ length: 11 }, (_, i) => ({
      ...cryptoRequest({ requestId: `ROLD${i}` }),
      decision: { outcome: 'expired' as const, at: T0 },
    }));
    const text = JSON.stringify(
      homeView({
        userId: 'U0REQ0001',
        waitingForMe: [],
        myOpen: mine,
        recent,
        isApprover: false,
        isRequester: true,
        isDeskMember: true,
        at: T0,
        sandbox: false,
      }).blocks,
    );
    expect(text).toContain('RMINE14');
    expect(text).not.toContain('RMINE15');
    expect(text).toContain('…and 5 more, not shown here');
    expect(text).toContain('ROLD9');
    expect(text).not.toContain('ROLD10');
    expect(text).toContain('Older finished requests are not shown here');
    const few = JSON.stringify(
      homeView({
        userId: 'U0REQ0001',
        waitingForMe: [],
        myOpen: mine.slice(0, 3),
        recent: recent.slice(0, 10),
        isApprover: false,
        isRequester: true,
        isDeskMember: true,
        at: T0,
        sandbox: false,
      }).blocks,
    );
    expect(few).not.toContain('not shown here');
  });

  it('says how many waiting for me it left out past 12 cards, and where to see them', () => {
    const waiting = (n: number) =>
      Array.from({ length: n }, (_, i) => cryptoRequest({ requestId: `RWAIT${String(i).padStart(2, '0')}` }));
    const home = (n: number) =>
      homeView({
        userId: 'U0APP0001',
        waitingForMe: waiting(n),
        myOpen: [],
        recent: [],
        isApprover: true,
        isRequester: false,
        isDeskMember: true,
        at: T0,
        sandbox: false,
      });
    const view = home(15);
    expect(actionsOf(view.blocks)).toHaveLength(12);
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('Waiting for your approval (15)');
    expect(text).toContain('RWAIT11');
    expect(text).not.toContain('RWAIT12');
    expect(text).toContain('…and 3 more, not shown here: `/desk pending` lists every request waiting for approval');
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
    expect(actionsOf(home(12).blocks)).toHaveLength(12);
    expect(JSON.stringify(home(12).blocks)).not.toContain('not shown here');
  });

  it('names ten requests per delivery problem and counts the rest; past fifteen problems it counts them too', () => {
    const problem = (requestId: string, error: string) => ({
      requestId,
      event: 'request.created',
      error,
      since: T0,
      attempts: 3,
      permanent: true,
    });
    const sameError = Array.from({ length: 15 }, (_, i) =>
      problem(`RPROB${String(i).padStart(2, '0')}`, 'channel_not_found'),
    );
    // Forty-one different errors: more than one section's 3,000 characters hold, and more than fifteen lines.
    const manyErrors = Array.from({ length: 40 }, (_, i) =>
      problem(`RERR${String(i).padStart(2, '0')}`, `error_${String(i).padStart(2, '0')}_${'x'.repeat(60)}`),
    );
    const view = homeView({
      userId: 'U0APP0001',
      waitingForMe: [],
      myOpen: [],
      recent: [],
      deliveryProblems: [...sameError, ...manyErrors],
      isApprover: true,
      isRequester: false,
      isDeskMember: true,
      at: T0,
      sandbox: false,
    });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('RPROB09');
    expect(text).not.toContain('RPROB10');
    expect(text).toContain('15 message(s) waiting (`RPROB00`');
    expect(text).toContain('`RPROB09` and 5 more)');
    // One line per error, fifteen lines at most: the rest are counted, and the log names them.
    for (let i = 0; i < 14; i++) expect(text).toContain(`RERR${String(i).padStart(2, '0')}`);
    expect(text).not.toContain('RERR14');
    expect(text).toContain("…and 26 more, not shown here: the bot's log names each message Slack refused");
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('stays under 100 blocks with many waiting requests', () => {
    const many = Array.from({ length: 60 }, (_, i) => cryptoRequest({ requestId: `R${i}` }));
    const view = homeView({
      userId: 'U0APP0001',
      waitingForMe: many,
      myOpen: many,
      recent: many,
      isApprover: true,
      isRequester: true,
      at: T0,
      sandbox: true,
    });
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
  });
});

describe('the last-resort block cut', () => {
  it("a message or modal over Slack's block limit keeps what fits and says how many were left out", () => {
    const sections = (n: number) => Array.from({ length: n }, (_, i) => section(`line ${i}`));
    const msg = message('m', sections(60));
    expect(msg.blocks).toHaveLength(LIMITS.messageBlocks);
    expect(JSON.stringify(msg.blocks.at(-2))).toContain('line 48');
    expect(JSON.stringify(msg.blocks.at(-1))).toContain(
      '…and 11 more, not shown here: a message holds at most 50 blocks.',
    );
    expect(message('m', sections(50)).blocks).toHaveLength(50);
    expect(JSON.stringify(message('m', sections(50)).blocks)).not.toContain('not shown here');
    const view = modal(sections(130), { callbackId: 'c', title: 't' });
    expect(view.blocks).toHaveLength(LIMITS.viewBlocks);
    expect(JSON.stringify(view.blocks.at(-1))).toContain(
      '…and 31 more, not shown here: a view holds at most 100 blocks.',
    );
  });

  it('App Home over 100 blocks says so in its last block', () => {
    // Twelve cards, each asking a person about forty long candidates: several sections a card.
    const candidates = Array.from({ length: 40 }, (_, i) => ({
      exchangeId: `w-${i}`,
      createdAt: T0,
      amount: '1',
      status: 'pending',
      requestId: null,
      destination: 'OTC partner settlement wallet '.repeat(4),
    }));
    const question = {
      requestId: 'RW',
      question: { askedAt: T0, kind: 'ambiguous' as const, candidates },
      what: 'withdrawal',
      currency: 'BTC',
    };
    const waiting = Array.from({ length: 12 }, (_, i) => ({
      ...cryptoRequest({ requestId: `RW${i}` }),
      question: { ...question, requestId: `RW${i}` },
    }));
    const view = homeView({
      userId: 'U0APP0001',
      waitingForMe: waiting,
      myOpen: [],
      recent: [],
      isApprover: true,
      isRequester: false,
      isDeskMember: true,
      at: T0,
      sandbox: false,
    });
    expect(view.blocks).toHaveLength(LIMITS.viewBlocks);
    expect(JSON.stringify(view.blocks.at(-1))).toMatch(
      /…and \d+ more, not shown here: `\/desk pending` lists every request waiting for approval/,
    );
    expect(viewViolations(view as unknown as Record<string, unknown>)).toEqual([]);
  });
});

describe('limits file', () => {
  it("holds Block Kit's published numbers", () => {
    expect(LIMITS).toMatchObject({
      sectionText: 3000,
      headerText: 150,
      buttonText: 75,
      optionText: 75,
      modalTitle: 24,
      messageBlocks: 50,
      viewBlocks: 100,
    });
  });
});

describe('/desk pending', () => {
  it('lists every waiting request up to 40, however long the lines, and says how many more there are', () => {
    const base = cryptoRequest();
    const long = {
      ...base.request,
      destination: { label: 'Counterparty settlement wallet '.repeat(3), address: '0xabc' },
    } as ApprovalMessageInput['request'];
    const waiting = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        cryptoRequest({ requestId: `RWAIT${String(i).padStart(2, '0')}`, request: long }),
      );
    const forty = pendingList(waiting(40), false);
    const text = JSON.stringify(forty.blocks);
    // 40 lines are more than one section holds (3,000 characters): none is dropped on the way.
    for (let i = 0; i < 40; i++) expect(text).toContain(`RWAIT${String(i).padStart(2, '0')}`);
    expect(text).not.toContain('more, not shown');
    expect(limitViolations(forty.blocks)).toEqual([]);
    const more = JSON.stringify(pendingList(waiting(45), false).blocks);
    expect(more).toContain('RWAIT39');
    expect(more).not.toContain('RWAIT40');
    expect(more).toContain('…and 5 more, not shown here');
  });

  it('pages past 40: each page says how many more there are and which page shows them', () => {
    const waiting = Array.from({ length: 100 }, (_, i) =>
      cryptoRequest({ requestId: `RWAIT${String(i).padStart(3, '0')}` }),
    );
    const shown = (blocks: unknown) =>
      waiting.map((r) => r.requestId).filter((id) => JSON.stringify(blocks).includes(`\`${id}\``));
    const page1 = pendingList(waiting, false);
    expect(shown(page1.blocks)).toEqual(waiting.slice(0, 40).map((r) => r.requestId));
    expect(JSON.stringify(page1.blocks)).toContain(
      '…and 60 more, not shown here: `/desk pending 2` shows the next 40.',
    );
    const page3 = pendingList(waiting, false, 3);
    expect(shown(page3.blocks)).toEqual(waiting.slice(80).map((r) => r.requestId));
    expect(JSON.stringify(page3.blocks)).toContain('Waiting for approval (100)* · 81–100, page 3 of 3');
    expect(JSON.stringify(page3.blocks)).not.toContain('not shown here');
    expect(page3.text).toBe('100 requests wait for approval · 81–100, page 3 of 3');
    expect(limitViolations(page1.blocks)).toEqual([]);
    const past = pendingList(waiting, false, 4);
    expect(shown(past.blocks)).toEqual([]);
    expect(past.text).toBe(
      'There is no page 4. 100 requests wait for approval, on 3 pages: `/desk pending` shows the first.',
    );
  });
});
