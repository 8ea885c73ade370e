import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hasKeyConfig, loadExchangeKey } from '../../../src/bot/exchange/keys.js';
import { publicKeyHex, KeyError } from '../../../src/bot/exchange/signer.js';
import { expectedApiKey, nodePrivateKey, TEST_PRIVATE_KEY_HEX } from './support/keys.js';

const dir = mkdtempSync(join(tmpdir(), 'exchange-keys-'));
/** A key file as an operator keeps it: readable by its owner only. */
function file(name: string, text: string, mode = 0o600): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

const API_KEY = expectedApiKey(TEST_PRIVATE_KEY_HEX);
const sec1 = nodePrivateKey(TEST_PRIVATE_KEY_HEX).export({ type: 'sec1', format: 'pem' }).toString();
const pkcs8 = nodePrivateKey(TEST_PRIVATE_KEY_HEX).export({ type: 'pkcs8', format: 'pem' }).toString();
// `openssl ecparam -genkey` writes the curve parameters block first.
const withParams = `-----BEGIN EC PARAMETERS-----\nBgUrgQQACg==\n-----END EC PARAMETERS-----\n${sec1}`;

/** Anything that would give the key away: hex in either case, PEM base64 lines. */
function leaks(text: string): boolean {
  const pemLines = [...sec1.split('\n'), ...pkcs8.split('\n')].filter((l) => l.length > 20 && !l.startsWith('-----'));
  return (
    text.toLowerCase().includes(TEST_PRIVATE_KEY_HEX) ||
    pemLines.some((l) => text.includes(l) || text.includes(l.slice(5, 25)))
  );
}

function expectNoLeak(value: unknown): void {
  expect(leaks(String(value))).toBe(false);
  expect(leaks(JSON.stringify(value) ?? '')).toBe(false);
  expect(leaks(inspect(value, { depth: 10, showHidden: true }))).toBe(false);
  if (value instanceof Error) expect(leaks(value.stack ?? '')).toBe(false);
}

describe('loadExchangeKey', () => {
  it.each([
    ['hex', { privateKey: TEST_PRIVATE_KEY_HEX }],
    ['0x hex with spaces', { privateKey: ` 0x${TEST_PRIVATE_KEY_HEX.toUpperCase()}\n` }],
    ['hex file', { privateKeyFile: file('key.hex', `${TEST_PRIVATE_KEY_HEX}\n`) }],
    ['PEM SEC1 file', { privateKeyFile: file('sec1.pem', sec1) }],
    ['PEM PKCS#8 file', { privateKeyFile: file('pkcs8.pem', pkcs8) }],
    ['PEM SEC1 with an EC PARAMETERS block', { privateKeyFile: file('params.pem', withParams) }],
  ])('loads a %s and derives the public key node:crypto derives', (_name, config) => {
    const loaded = loadExchangeKey(config);
    expect(Buffer.from(loaded.privateKey.reveal()).toString('hex')).toBe(TEST_PRIVATE_KEY_HEX);
    expect(loaded.apiKey).toBe(API_KEY);
    expect(loaded.signer.apiKey).toBe(API_KEY);
    expectNoLeak(loaded);
  });

  it('sends a configured EXCHANGE_API_KEY as given when it is this key (uncompressed form)', () => {
    const loaded = loadExchangeKey({ privateKey: TEST_PRIVATE_KEY_HEX, apiKey: '' });
    expect(loaded.apiKey).toBe(API_KEY);
    const uncompressed = publicKeyHex(loaded.privateKey, false).toLowerCase();
    expect(loadExchangeKey({ privateKey: TEST_PRIVATE_KEY_HEX, apiKey: uncompressed }).signer.apiKey).toBe(
      uncompressed,
    );
  });

  it.each([
    ['nothing configured', {}, 'missing', /no exchange key configured/],
    ['blank values', { privateKey: '  ', privateKeyFile: '' }, 'missing', /no exchange key configured/],
    ['both configured', { privateKey: TEST_PRIVATE_KEY_HEX, privateKeyFile: '/x' }, 'invalid', /only one/],
    [
      '63 hex digits',
      { privateKey: TEST_PRIVATE_KEY_HEX.slice(1) },
      'invalid',
      /EXCHANGE_PRIVATE_KEY: private key is neither/,
    ],
    ['zero scalar', { privateKey: '0'.repeat(64) }, 'invalid', /not a valid secp256k1 scalar/],
    ['a missing file', { privateKeyFile: join(dir, 'nope.pem') }, 'unreadable', /could not be read \(ENOENT\)/],
    [
      'a key file others can read',
      { privateKeyFile: file('open.pem', sec1, 0o644) },
      'unreadable',
      /open\.pem can be read by group or others \(mode 644\).*chmod 600 .*open\.pem/,
    ],
    [
      'a key file its group can read',
      { privateKeyFile: file('group.hex', TEST_PRIVATE_KEY_HEX, 0o640) },
      'unreadable',
      /chmod 600 .*group\.hex/,
    ],
    [
      'a P-256 PEM',
      {
        privateKeyFile: file(
          'p256.pem',
          generateKeyPairSync('ec', { namedCurve: 'P-256' })
            .privateKey.export({ type: 'pkcs8', format: 'pem' })
            .toString(),
        ),
      },
      'invalid',
      /not on the secp256k1 curve/,
    ],
    [
      'a truncated PEM',
      { privateKeyFile: file('cut.pem', sec1.slice(0, 80) + sec1.slice(-30)) },
      'invalid',
      /could not be read/,
    ],
    [
      'an API key of another key',
      { privateKey: TEST_PRIVATE_KEY_HEX, apiKey: expectedApiKey('22'.repeat(32)) },
      'invalid',
      /not the public key/,
    ],
    [
      'an API key that is not hex',
      { privateKey: TEST_PRIVATE_KEY_HEX, apiKey: 'my-key' },
      'invalid',
      /must be the public key in hex/,
    ],
  ])('refuses %s with a KeyError that holds no key material', (_name, config, reason, message) => {
    let caught: unknown;
    try {
      loadExchangeKey(config);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(KeyError);
    expect(caught).toMatchObject({ reason, message: expect.stringMatching(message) });
    expectNoLeak(caught);
  });

  it('never echoes a near-miss key (one digit wrong) in the error', () => {
    const nearMiss = `${TEST_PRIVATE_KEY_HEX}0`;
    const err = (() => {
      try {
        loadExchangeKey({ privateKey: nearMiss });
      } catch (e) {
        return e;
      }
    })();
    expect(inspect(err)).not.toContain(nearMiss.slice(0, 20));
  });

  it('hasKeyConfig tells "no key" from "some key"', () => {
    expect(hasKeyConfig({})).toBe(false);
    expect(hasKeyConfig({ privateKey: ' ' })).toBe(false);
    expect(hasKeyConfig({ privateKeyFile: '/k.pem' })).toBe(true);
  });
});
