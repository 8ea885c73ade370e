// The local desk's sandbox panel on the sandbox's control: the panel speaks a desk's words (a deposit in
// "USDT (TRC20)"), the control the sandbox's (entry ids, fault rules).
import type { PanelSandbox } from '../local-desk/server/index.js';
import type { PanelFault, PanelFaultTarget, SandboxOps } from '../local-desk/protocol.js';
import type { FaultRule, SandboxControl } from '../sandbox/index.js';

/** Which exchange calls each panel target hits: the writes that make a withdrawal, an order, a quote. */
const TARGETS: Record<PanelFaultTarget, { method?: string; paths: (string | undefined)[] }> = {
  withdrawals: { method: 'POST', paths: ['/crypto/withdrawals', '/fiat/withdrawals'] },
  orders: { method: 'POST', paths: ['/orders'] },
  quotes: { method: 'POST', paths: ['/order_quotes'] },
  any: { paths: [undefined] },
};

/** Each panel fault as the sandbox's rule. A lost answer and a late commit only mean something for a write. */
const FAULTS: Record<PanelFault, { rule: Omit<FaultRule, 'method' | 'path' | 'times'>; writesOnly: boolean }> = {
  slow: { rule: { kind: 'latency', latencyMs: 4_000 }, writesOnly: false },
  hang: { rule: { kind: 'hang' }, writesOnly: false },
  lost_answer: { rule: { kind: 'drop_after_commit' }, writesOnly: true },
  late_commit: { rule: { kind: 'late_commit', commitAfterMs: 15_000, answer: 'hang' }, writesOnly: true },
};

export function panelSandbox(control: SandboxControl): PanelSandbox {
  const currencies = () =>
    control.cryptoCurrencies().map((c) => {
      const network = /\(([^)]+)\)/.exec(c.name)?.[1];
      return { id: c.id, label: network ? `${c.code} (${network})` : c.code };
    });
  return {
    state: () => ({
      now: control.now(),
      prices: control.prices().map((p) => ({ symbol: p.symbol, price: p.mid })),
      currencies: currencies().map((c) => c.label),
      faults: control.faults().map(describeFault),
    }),
    advance: ({ ms }) => void control.advance(ms),
    deposit: (op: SandboxOps['deposit']) => {
      const entry = currencies().find((c) => c.label === op.currency);
      if (!entry)
        throw new Error(
          `No currency ${op.currency} on the sandbox; one of ${currencies()
            .map((c) => c.label)
            .join(', ')}`,
        );
      control.injectDeposit({
        currencyId: entry.id,
        amount: op.amount,
        needsCounterpartyInfo: op.needsCounterpartyInfo,
      });
    },
    price: ({ symbol, price }) => void control.setPrice({ symbol, price }),
    fault: ({ fault, on, times }) => {
      const { rule, writesOnly } = FAULTS[fault];
      const target = TARGETS[on];
      const method = target.method ?? (writesOnly ? 'POST' : undefined);
      for (const path of target.paths) {
        control.addFault({
          ...rule,
          ...(method ? { method } : {}),
          ...(path ? { path } : {}),
          ...(times !== undefined ? { times } : {}),
        });
      }
    },
    clearFaults: () => control.clearFaults(),
  };
}

const KIND_WORDS: Partial<Record<FaultRule['kind'], (r: FaultRule) => string>> = {
  latency: (r) => `slow (${(r.latencyMs ?? 0) / 1000} s per answer)`,
  hang: () => 'hang',
  drop_after_commit: () => 'lost answer',
  late_commit: (r) => `late commit (${(r.commitAfterMs ?? 15_000) / 1000} s later)`,
};

/** One line per rule: "lost answer on POST /crypto/withdrawals, next 1". */
export function describeFault(r: FaultRule): string {
  const what = KIND_WORDS[r.kind]?.(r) ?? r.kind.replaceAll('_', ' ');
  const where =
    r.method && r.path
      ? `${r.method} ${r.path}`
      : r.path
        ? `every ${r.path}`
        : r.method
          ? `every ${r.method}`
          : 'every call';
  return `${what} on ${where}${r.times !== undefined ? `, next ${r.times}` : ''}`;
}
