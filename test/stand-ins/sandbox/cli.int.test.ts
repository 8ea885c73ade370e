import { afterEach, describe, expect, it } from 'vitest';
import { runSandboxCli, SANDBOX_BANNER } from '../../../src/stand-ins/sandbox/cli.js';
import { createSigner, parsePrivateKey } from '../../../src/bot/exchange/signer.js';
import type { Sandbox } from '../../../src/stand-ins/sandbox/server.js';
import { makeKey, signedHeaders } from './support/sign.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('npm run sandbox', () => {
  it('registers SANDBOX_PUBLIC_KEY (uncompressed) with every scope and prints the banner and URL', async () => {
    const key = makeKey();
    const lines: string[] = [];
    sandbox = await runSandboxCli(
      { SANDBOX_PORT: '0', SANDBOX_PUBLIC_KEY: key.uncompressedHex, SANDBOX_SEED: 'cli' },
      (l) => lines.push(l),
    );
    const out = lines.join('\n');
    expect(out).toContain(SANDBOX_BANNER);
    expect(out).toContain(sandbox.url);
    expect(out).not.toContain('EXCHANGE_PRIVATE_KEY');
    const url = `${sandbox.url}/public_api/v1/order_quotes`;
    const body = JSON.stringify({ symbol: 'BTC-USD', side: 'buy', quantity: '100', payment_method: 'user_balance' });
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: signedHeaders(key, { method: 'POST', url, body, timestamp: String(Date.now()) }),
    });
    expect(res.status).toBe(201);
    expect(lines.some((l) => l.startsWith('[sandbox] POST /public_api/v1/order_quotes 201'))).toBe(true);
  });

  it('without a key, generates a pair and prints both halves so any tool can sign', async () => {
    const lines: string[] = [];
    sandbox = await runSandboxCli({ SANDBOX_PORT: '0' }, (l) => lines.push(l));
    const priv = lines.join('\n').match(/EXCHANGE_PRIVATE_KEY=([0-9a-f]{64})/)![1]!;
    const signer = createSigner(parsePrivateKey(priv));
    expect(lines.join('\n')).toContain(signer.apiKey);
    const url = `${sandbox.url}/public_api/v1/accounts/balances`;
    const res = await fetch(url, {
      headers: signer.headers({ method: 'GET', targetUri: url, body: undefined, timestampMs: Date.now() }),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a bad port and a bad key with one clear sentence', async () => {
    await expect(runSandboxCli({ SANDBOX_PORT: 'eighty' }, () => {})).rejects.toThrow(/SANDBOX_PORT/);
    await expect(runSandboxCli({ SANDBOX_PORT: '0', SANDBOX_PUBLIC_KEY: 'abc' }, () => {})).rejects.toThrow(
      /not a secp256k1 public key/,
    );
  });
});
