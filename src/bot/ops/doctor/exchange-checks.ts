// The exchange key (check-exchange's read, reused) and the clock offset from that answer's Date header.
import { failed, passed, type DoctorCheck, type Outcome } from './doctor.js';

export interface ExchangeProbe {
  /** check-exchange's answer: its exit code, the lines it printed, and the exchange's clock minus ours (ms). */
  code: number;
  lines: readonly string[];
  clockOffsetMs: number | undefined;
}

/** Beyond this difference the clock check fails (check-exchange's clock-skew hint, given by the caller). */
export interface ExchangeCheckOptions {
  /** undefined: EXCHANGE_BASE_URL is unset (the embedded sandbox). */
  probe: (() => Promise<ExchangeProbe>) | undefined;
  maxClockOffsetMs: number;
}

export function exchangeChecks(o: ExchangeCheckOptions): DoctorCheck[] {
  let answer: Promise<ExchangeProbe> | undefined;
  const probe = o.probe;
  const once = () => (answer ??= probe!());
  if (!probe) {
    const sandbox = failed(
      'EXCHANGE_BASE_URL is unset: the bot would run on its embedded sandbox exchange',
      'set EXCHANGE_BASE_URL and the key (EXCHANGE_PRIVATE_KEY_FILE) of the real exchange',
    );
    return [
      { name: 'exchange key', run: async () => sandbox },
      {
        name: 'clock offset to the exchange',
        run: async () => failed('no exchange to compare with', 'set EXCHANGE_BASE_URL'),
      },
    ];
  }
  return [
    { name: 'exchange key', run: async () => keyOutcome(await once()) },
    {
      name: 'clock offset to the exchange',
      run: async () => clockOutcome((await once()).clockOffsetMs, o.maxClockOffsetMs),
    },
  ];
}

function keyOutcome(p: ExchangeProbe): Outcome {
  if (p.code === 0) return passed(p.lines[0]?.replace(/:$/, '') ?? 'balances read');
  // check-exchange says what is wrong and what to do in one sentence.
  return failed(p.lines.join(' ').replace(/\.$/, ''), 'as said; `npm run check-exchange` prints the same');
}

function clockOutcome(offsetMs: number | undefined, maxMs: number): Outcome {
  if (offsetMs === undefined)
    return failed(
      'the exchange sent no readable Date header, so the offset is unknown',
      'check that EXCHANGE_BASE_URL is the exchange itself, not a proxy that strips headers',
    );
  const seconds = (Math.abs(offsetMs) / 1000).toFixed(1);
  const side = offsetMs > 0 ? 'behind' : 'ahead of';
  if (Math.abs(offsetMs) > maxMs)
    return failed(
      `this machine's clock is ${seconds} s ${side} the exchange's (more than ${maxMs / 1000} s)`,
      'synchronise the clock (NTP: timedatectl set-ntp true, or chrony)',
    );
  return passed(
    `${seconds} s ${side} the exchange's (within ±${maxMs / 1000} s; the Date header is good to about 1 s)`,
  );
}
