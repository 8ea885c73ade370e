/**
 * `npm run demo` end to end: the same story the command plays, against the real bot, the
 * sandbox and the fake Slack API, with a short sandbox quote lifetime so the quote runs out
 * between the two trade approvals in a fraction of a second. Checks that each beat the issue
 * asks for appears in the transcript, under the right person and place.
 */
import { describe, expect, it } from 'vitest';
import { playStory } from '../../../src/stand-ins/demo/story.js';
import { createTranscript } from '../../../src/stand-ins/demo/transcript.js';
import { REFUSAL_MESSAGES } from '../../../src/bot/domain/refusals.js';

/** The lines under each `── heading…` rule (heading given whole or as its start), up to the next rule or narration. */
function blocksUnder(lines: readonly string[], heading: string): string[][] {
  const out: string[][] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith(`── ${heading}`)) return;
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && !lines[j]!.startsWith('── ') && !lines[j]!.startsWith('» '); j++)
      if (lines[j] !== '') body.push(lines[j]!.trim());
    out.push(body);
  });
  return out;
}

describe('npm run demo', () => {
  it(
    'plays the request, the refused clicks, two approvals, the status updates, the re-quote and the deposit',
    { timeout: 180_000 },
    async () => {
      const transcript = createTranscript();
      // Each step may wait 60 s: polling backs off (x1.5 from 200 ms) while the order is pending, so on a
      // loaded machine, where the steps before took longer, its fill reached the thread after 10 s, and once after 20 s.
      await playStory(transcript, { quoteLifetimeMs: 400, afterQuoteExpiryMs: 100, stepTimeoutMs: 60_000 });
      const lines = transcript.lines;
      const all = lines.join('\n');

      expect(lines[0]).toMatch(/^SANDBOX · /);
      // 1. balances: Tara's ephemeral table, from the sandbox's seeded account.
      expect(blocksUnder(lines, 'Tara (only you) ')[0]).toEqual(
        expect.arrayContaining(['▌Balances', expect.stringMatching(/^BTC\s+3\.5\s+0\.1\s+0\.05\s+3\.65$/)]),
      );

      // 2. the modal loads, then is filled; the approval message is posted for everyone.
      expect(all).toContain("── Tara's modal: Withdraw ");
      expect(all).toMatch(/Amount 0\.05 BTC \+ fee 0\.0002 BTC = total 0\.0502 BTC/);
      const [withdrawal, large, tradeMessage] = blocksUnder(lines, '#desk-approvals · everyone ');
      expect(withdrawal).toEqual(
        expect.arrayContaining([
          '▌Crypto withdrawal · 0.05 BTC to Treasury cold storage',
          expect.stringMatching(/^Requested by: @Tara /),
          '[Approve] [Reject] [Cancel]',
        ]),
      );
      // The requester's words come after the fields, quoted as plain text.
      const noteAt = withdrawal!.indexOf('Note from the requester, as typed');
      expect(noteAt).toBeGreaterThan(withdrawal!.findIndex((l) => l.startsWith('Destination: ')));
      expect(withdrawal![noteAt + 1]).toBe('│ Sweep to cold storage after the Friday OTC settlement & fees');

      // 3. refusals to the one who clicked; progress in place; the thread follows the exchange.
      expect(blocksUnder(lines, 'Tara (only you) ')[1]).toEqual([`🚫 ${REFUSAL_MESSAGES.own_request}`]);
      expect(blocksUnder(lines, 'Ana (only you) ')[0]).toEqual([`🚫 ${REFUSAL_MESSAGES.already_approved}`]);
      const withdrawalUpdates = blocksUnder(lines, '#desk-approvals · "Crypto withdrawal').flat();
      expect(withdrawalUpdates[0]).toBe('Rule everything else · Needs 2 of treasury (1 so far: @Ana)');
      expect(withdrawalUpdates).toContain('✅ Approved by @Ana and @Ben');
      expect(withdrawalUpdates).toContain('(the Approve / Reject / Cancel buttons are gone)');

      // 3b. a large withdrawal, valued at the spot price, waits for risk after two treasury approvals.
      expect(large).toEqual(
        expect.arrayContaining([
          '▌Crypto withdrawal · 2 BTC to Treasury cold storage',
          expect.stringMatching(/^Value in USD: [\d,.]+ USD \(2 BTC at [\d,.]+, BTC-USD spot \d\d:\d\d\)$/),
          'Rule large withdrawals · Needs 2 of treasury and 1 of risk',
        ]),
      );
      const largeUpdates = blocksUnder(lines, '#desk-approvals · "Crypto withdrawal · 2 BTC').flat();
      expect(largeUpdates.slice(0, 3)).toEqual([
        'Rule large withdrawals · Needs 2 of treasury (1 so far: @Ana) and 1 of risk',
        'Rule large withdrawals · Needs 1 of risk · treasury done (@Ana, @Ben)',
        '✅ Approved by @Ana, @Ben and @Rita',
      ]);
      const thread = blocksUnder(lines, 'thread in #desk-approvals ').flat();
      const order = ['Status processing', 'Status broadcasted', '✅ Completed. Transaction'].map((s) =>
        thread.findIndex((t) => t.startsWith(`🔵 ${s}`) || t.startsWith(s)),
      );
      expect(order.every((i) => i >= 0)).toBe(true);
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(thread.find((t) => t.startsWith('✅ Completed. Transaction'))).toMatch(
        /View on the explorer \(https?:\/\/\S+\)/,
      );
      const dms = blocksUnder(lines, 'DM to Tara ').flat();
      expect(dms.some((t) => t.includes('0.05 BTC to Treasury cold storage) was approved by @Ana and @Ben'))).toBe(
        true,
      );
      expect(dms.some((t) => t.includes('0.05 BTC to Treasury cold storage) completed'))).toBe(true);

      // 4. the trade: indicative price, limit and expiry shown; the quote expires between approvals.
      expect(tradeMessage).toEqual(
        expect.arrayContaining([
          '▌Trade · Buy 0.1 BTC with USD',
          expect.stringMatching(/^Indicative price: [\d,.]+ USD$/),
          expect.stringMatching(/^Worst acceptable price: at most [\d,.]+ USD \(0\.5% from indicative\)$/),
          expect.stringMatching(/^Quote expires: \d\d:\d\d:\d\d/),
        ]),
      );
      const requote = thread.find((t) => t.includes('re-quoted'));
      expect(requote).toMatch(
        /^🔁 Quote expired, re-quoted BTC-USD at [\d,.]+ USD \(was [\d,.]+ USD\), within your limit of [\d,.]+ USD: ordering\.$/,
      );
      expect(thread.findIndex((t) => t.startsWith('✅ Completed. Order'))).toBeGreaterThan(thread.indexOf(requote!));
      expect(dms.some((t) => t.includes('(Buy 0.1 BTC with USD) completed'))).toBe(true);

      // 5. the deposit in #compliance with its button, and Cleo's declaration form.
      expect(blocksUnder(lines, '#compliance · everyone ')[0]).toEqual(
        expect.arrayContaining([expect.stringMatching(/^🚨 Deposit received: 0\.8 BTC/), '[Declare counterparty]']),
      );
      expect(all).toContain("── Cleo's modal: Counterparty ");
      // Nothing a person sees carries raw Slack tokens.
      expect(all).not.toMatch(/<@U|<!date|&amp;|&lt;/);
    },
  );
});
