import { describe, expect, it } from 'vitest';
import { safeForSecrets, secretFileExposure } from '../../../src/bot/domain/secret-edges.js';

describe('where a secret may travel', () => {
  it.each([
    ['https://exchange.example', true],
    ['https://exchange.example:8443/api', true],
    ['http://127.0.0.1:4010', true],
    ['http://127.9.0.1', true],
    ['http://localhost:3000', true],
    ['http://[::1]:3000', true],
    ['http://exchange.example', false],
    ['http://10.0.0.5', false],
    ['http://localhost.exchange.example', false],
    ['http://127.0.0.1.nip.io', false],
    ['ftp://127.0.0.1', false],
  ])('%s: %s', (url, ok) => {
    expect(safeForSecrets(new URL(url))).toBe(ok);
  });
});

describe('how a secret file must be kept (as ssh keeps a private key)', () => {
  const me = 1000;
  it.each([
    [0o600, me, undefined],
    [0o400, me, undefined],
    [0o644, me, /can be read by group or others \(mode 644\).*chmod 600 \/k\.pem/],
    [0o640, me, /mode 640.*chmod 600 \/k\.pem/],
    [0o604, me, /mode 604.*chmod 600 \/k\.pem/],
    [0o620, me, /mode 620.*chmod 600 \/k\.pem/],
    // Owned by another user (root, a container's secret mount): its group may be granted; others never.
    [0o440, 0, undefined],
    [0o444, 0, /every user of this machine can read it \(mode 444\).*chmod o-rwx \/k\.pem/],
  ])('mode %o owned by uid %i', (mode, uid, problem) => {
    const found = secretFileExposure('/k.pem', { mode: 0o100000 | mode, uid }, me);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toMatch(problem);
  });

  it('is not judged where files have no POSIX owner (no getuid)', () => {
    expect(secretFileExposure('/k.pem', { mode: 0o100666, uid: 0 }, undefined)).toBeUndefined();
  });
});
