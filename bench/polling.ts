// Polling 1,000 withdrawals in flight against the sandbox with the real client and production rate cap, from
// the sandbox's access log: first cycle's calls against pages needed, calls until all read, peak per second.
// Set-up creates the withdrawals over HTTP and gives the store matching `submitted` records.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEngine } from '../src/bot/engine/engine.js';
import { createExchangePort } from '../src/bot/exchange/adapter/index.js';
import { currencyEntry, savedAddress } from '../src/bot/exchange/adapter/lookup-records.js';
import { createRandomIds } from '../src/bot/engine/ids.js';
import { DEFAULT_ENGINE_CONFIG } from '../src/bot/engine/engine-config.js';
import { REQUEST_RECORD_SCHEMA } from '../src/bot/domain/record-schema.js';
import { createPolicy } from '../src/bot/domain/policy.js';
import { isFinishedRequest, newExecution, newRequest, type RequestRecord } from '../src/bot/domain/record.js';
import { buildCryptoWithdrawal } from '../src/bot/domain/request.js';
import { DEFAULT_RATE_LIMIT_PER_SECOND, MAX_PAGE_SIZE } from '../src/bot/exchange/assumptions.js';
import { createExchangeClient, systemClock } from '../src/bot/exchange/client.js';
import type { AddressBookAddress, CryptoCurrencyEntry, CryptoWithdrawal } from '../src/bot/exchange/schemas.js';
import { createSigner, parsePrivateKey } from '../src/bot/exchange/signer.js';
import { startSandbox, type AccessLogEntry } from '../src/stand-ins/sandbox/index.js';
import { memoryAuditLog, memoryKv, memoryRepository } from '../src/bot/store/memory.js';
import { makeFaultKey } from '../test/faults/support/keys.js';
import type { BenchRow } from './row.js';
import { sized, type Scale } from './scale.js';

const IN_FLIGHT = 1_000;
const SEED_CONCURRENCY = 20;
/** Real seconds of ticking: enough for every withdrawal to be read at least once under the cap. */
const RUN_SECONDS = 15;
const ENTRY_ID = 104; // USDT on Tron: precision 2, fee 1, minimum 10

export async function benchPolling(scale: Scale = 'full'): Promise<BenchRow[]> {
  const inFlight = sized(scale, IN_FLIGHT, 5);
  const runSeconds = sized(scale, RUN_SECONDS, 2);
  const key = makeFaultKey();
  const access: AccessLogEntry[] = [];
  let recording = false;
  const sandbox = await startSandbox({
    seed: 'bench-polling',
    keys: [{ publicKeyHex: key.publicKeyHex, scopes: ['read', 'transfer', 'trade'] }],
    onRequest: (e) => void (recording && access.push(e)),
  });
  try {
    const signer = createSigner(parsePrivateKey(key.hex));
    const seedClient = createExchangeClient({ baseUrl: sandbox.url, signer, rateLimit: false });
    sandbox.control.setBalance({ currency: 'USDT', regular: '100000000' });

    const book: AddressBookAddress[] = [];
    for await (const a of seedClient.listAddressBook({ pageSize: 100 })) book.push(a);
    const address = book.find((a) => a.label === 'OTC partner (TRC20)')!;
    const entry = (await seedClient.listCryptoCurrencies()).find((e) => e.id === ENTRY_ID)!;
    const created: { w: CryptoWithdrawal; key: string }[] = [];
    const seedStart = performance.now();
    let next = 0;
    const ids = createRandomIds();
    await Promise.all(
      Array.from({ length: SEED_CONCURRENCY }, async () => {
        while (next < inFlight) {
          const i = next++;
          const requestKey = ids.uuid();
          const amount = `${10 + Math.floor(i / 100)}.${String(i % 100).padStart(2, '0')}`;
          const w = await seedClient.createCryptoWithdrawal({
            crypto_currency_id: ENTRY_ID,
            amount,
            address_book_address_id: address.id,
            request_id: requestKey,
          });
          created.push({ w, key: requestKey });
        }
      }),
    );
    const seedSeconds = (performance.now() - seedStart) / 1000;

    const requests = memoryRepository<RequestRecord>(isFinishedRequest);
    const policy = createPolicy({ requesters: ['U0REQ0001'], approvers: ['U0APP0001', 'U0APP0002'] });
    for (const { w, key: requestKey } of created) {
      const record = submittedRecord(w, requestKey, ids.requestId(), entry, address, policy);
      await requests.mutate(record.id, () => ({ next: record, result: null }));
    }

    const client = createExchangeClient({
      baseUrl: sandbox.url,
      signer,
      rateLimit: { perSecond: DEFAULT_RATE_LIMIT_PER_SECOND },
    });
    const engine = createEngine({
      exchange: createExchangePort(client),
      requests,
      kv: memoryKv(),
      audit: memoryAuditLog(),
      notifier: { notify: () => {} },
      clock: systemClock,
      ids,
      policy,
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    recording = true;
    const cycles: { calls: number; polled: number }[] = [];
    let readAll: number | undefined;
    let polledSoFar = 0;
    for (let s = 0; s < runSeconds; s++) {
      const started = performance.now();
      const before = access.length;
      const summary = await engine.tick();
      cycles.push({ calls: access.length - before, polled: summary.polled });
      polledSoFar += summary.polled;
      if (readAll === undefined && polledSoFar >= inFlight) readAll = access.length;
      await sleep(Math.max(0, 1_000 - (performance.now() - started)));
    }
    recording = false;

    const pagesNeeded = Math.ceil(inFlight / DEFAULT_ENGINE_CONFIG.poll.pageSize);
    const cap = DEFAULT_RATE_LIMIT_PER_SECOND;
    const maxWindow = maxInWindow(
      access.map((e) => e.at),
      1_000,
    );
    const first = cycles[0]!;
    const singles = access.filter((e) => /\/crypto\/withdrawals\/[^/]+$/.test(e.path)).length;
    return [
      {
        name: `seeding: ${inFlight} signed withdrawals created over HTTP`,
        value: inFlight / seedSeconds,
        unit: '/s',
        target: 'info',
        pass: true,
      },
      {
        name: `first polling cycle, ${inFlight} withdrawals in flight: exchange calls`,
        value: first.calls,
        unit: 'calls',
        target: `<= ${pagesNeeded} (pages of ${MAX_PAGE_SIZE} to list them)`,
        pass: first.calls <= pagesNeeded && first.calls > 0,
      },
      {
        name: 'first polling cycle: withdrawals read',
        value: first.polled,
        unit: 'reqs',
        target: 'info (the cap bounds one cycle)',
        pass: true,
      },
      {
        name:
          readAll === undefined
            ? `calls made in ${runSeconds} s without reading all ${inFlight} once`
            : `calls until all ${inFlight} were read once`,
        value: readAll ?? access.length,
        unit: 'calls',
        target: `<= ${pagesNeeded} (not one call each), within ${runSeconds} s`,
        pass: readAll !== undefined && readAll <= pagesNeeded,
      },
      {
        name: `single reads (GET /crypto/withdrawals/{id}) in ${runSeconds} s`,
        value: singles,
        unit: 'calls',
        target: 'info',
        pass: true,
      },
      {
        name: 'most exchange requests in any 1 s window',
        value: maxWindow,
        unit: 'req',
        target: `<= ${cap} (the configured cap, in any sliding second)`,
        pass: maxWindow <= cap,
      },
      {
        name: 'most exchange requests in one calendar second',
        value: maxPerCalendarSecond(access.map((e) => e.at)),
        unit: 'req',
        target: `<= ${cap}`,
        pass: maxPerCalendarSecond(access.map((e) => e.at)) <= cap,
      },
      {
        name: `exchange requests over ${runSeconds} s of polling`,
        value: access.length / runSeconds,
        unit: '/s',
        target: `<= ${cap}`,
        pass: access.length / runSeconds <= cap,
      },
    ];
  } finally {
    await sandbox.close();
  }
}

/** What the engine has persisted once a withdrawal's create call answered 201. */
function submittedRecord(
  w: CryptoWithdrawal,
  requestKey: string,
  id: string,
  entry: CryptoCurrencyEntry,
  address: AddressBookAddress,
  policy: ReturnType<typeof createPolicy>,
): RequestRecord {
  const facts = currencyEntry(entry);
  if (facts.precision === null) throw new Error('bench set-up: the entry has no precision');
  const built = buildCryptoWithdrawal({ ...facts, precision: facts.precision }, savedAddress(address), {
    amount: w.amount,
  });
  if (!built.ok) throw new Error(`bench set-up: ${built.message}`);
  const at = w.created_at;
  const base = newRequest({ id, requester: 'U0REQ0001', snapshot: built.value, now: at - 60_000, policy });
  const record: RequestRecord = {
    ...base,
    state: 'submitted',
    updatedAt: at,
    approvals: ['U0APP0001', 'U0APP0002'].map((userId) => ({
      userId,
      at: at - 1_000,
      snapshotHash: base.snapshotHash,
    })),
    execution: {
      ...newExecution(at - 1_000),
      attempts: [{ key: requestKey, startedAt: at, quote: null, outcome: 'submitted', message: null, endedAt: at }],
      exchangeId: w.id,
      submittedAt: at,
    },
    remote: {
      status: w.status,
      travelRuleStatus: w.travel_rule_status ?? null,
      pendingReason: w.pending_reason ?? null,
      transactionHash: w.transaction_hash ?? null,
      linkExplorer: w.link_explorer ?? null,
    },
  };
  return REQUEST_RECORD_SCHEMA.parse(record);
}

/** The most timestamps (ms) falling in one whole second of the clock (how a fixed-window limiter counts). */
function maxPerCalendarSecond(times: number[]): number {
  const counts = new Map<number, number>();
  for (const t of times) counts.set(Math.floor(t / 1000), (counts.get(Math.floor(t / 1000)) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

/** The most timestamps (ms) inside any window of `ms` (two-pointer sweep over sorted times). */
export function maxInWindow(times: number[], ms: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let lo = 0, hi = 0; hi < t.length; hi++) {
    while (t[hi]! - t[lo]! >= ms) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}
