// The local desk's default approval policy: a file like policy.example.yaml, written into the data
// folder on each start (a POLICY_FILE given by the person running it wins). Treasury is the three
// approvers, risk is Rita; a withdrawal worth 100000 USD (or USDT, USDC) or more waits for risk too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PREVIEW_IDS } from './preview-cast.js';

export const PREVIEW_POLICY_FILE = 'policy.yaml';

export const PREVIEW_POLICY = `# The local desk's approval policy (written on each start; set POLICY_FILE to use your own).
groups:
  treasury: [${PREVIEW_IDS.approvers.join(', ')}]
  risk: [${PREVIEW_IDS.risk}]
requesters: [${PREVIEW_IDS.trader}]
rules:
  # The sandbox prices BTC and ETH in USD; stablecoins are valued in themselves (it has no USDT-USD pair,
  # and a request the policy cannot price is refused).
  - name: large withdrawals
    match: { kind: crypto_withdrawal, asset: [BTC, ETH], value_at_least: { amount: '100000', currency: USD } }
    require: [{ group: treasury, count: 2 }, { group: risk, count: 1 }]
  - name: large USDT withdrawals
    match: { kind: crypto_withdrawal, asset: USDT, value_at_least: { amount: '100000', currency: USDT } }
    require: [{ group: treasury, count: 2 }, { group: risk, count: 1 }]
  - name: large USDC withdrawals
    match: { kind: crypto_withdrawal, asset: USDC, value_at_least: { amount: '100000', currency: USDC } }
    require: [{ group: treasury, count: 2 }, { group: risk, count: 1 }]
  - name: trades
    match: { kind: trade }
    require: [{ group: treasury, count: 2 }]
    expires_after: 15m
  - name: everything else
    require: [{ group: treasury, count: 2 }]
limits:
  - name: daily BTC outflow
    match: { kind: crypto_withdrawal, asset: BTC }
    window: 24h
    max: '5'
`;

/** Writes the default policy into `dataDir` and returns its path. */
export function writePreviewPolicy(dataDir: string): string {
  const path = join(dataDir, PREVIEW_POLICY_FILE);
  writeFileSync(path, PREVIEW_POLICY, { mode: 0o600 });
  return path;
}
