import { describe, expect, it } from 'vitest';
import { encode } from 'uqr';
import { otpauthIn } from '../../../../../src/stand-ins/local-desk/page/blocks/otpauth-uri.js';
import { enrollView } from '../../../../../src/bot/slack/step-up/step-up-views.js';
import { BLOCK } from '../../../../../src/bot/slack/kit/slack-ids.js';
import { newTotpSecret, otpauthUri } from '../../../../../src/bot/domain/step-up/totp.js';

describe('the local desk QR code of the enrollment modal', () => {
  it('finds the URI the bot put in the modal, & and all, and only there', () => {
    const secret = newTotpSecret();
    const uri = otpauthUri('Desk Bot', 'U0APP0001', secret);
    const view = enrollView({ secret, uri, replacing: false });
    const texts = view.blocks.map((b) => ({
      id: b.block_id,
      text: (b as { text?: { text?: string } }).text?.text ?? '',
    }));
    const found = texts.filter((t) => otpauthIn(t.text) !== undefined);
    expect(found.map((t) => t.id)).toEqual([BLOCK.stepUpUri]);
    expect(otpauthIn(found[0]!.text)).toBe(uri);
    // A QR code of it exists (uqr picks a version that holds it).
    expect(encode(uri, { ecc: 'M' }).size).toBeGreaterThan(21);
  });
});
