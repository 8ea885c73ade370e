// `npm run doctor`, the go-live check: one line per check, passed or failed with the fix. Checks see
// Slack, the exchange and the store through the small ports below (runtime/doctor-cli.ts wires them).
export type Outcome = { ok: true; detail: string } | { ok: false; problem: string; fix: string };

export interface DoctorCheck {
  /** What is checked, e.g. "Slack token" or "approval channel C0123ABCD". */
  name: string;
  run(): Promise<Outcome>;
}

export const passed = (detail: string): Outcome => ({ ok: true, detail });
export const failed = (problem: string, fix: string): Outcome => ({ ok: false, problem, fix });

/** Runs the checks in order, writes one line each, and resolves with the exit code (1 if any failed). */
export async function runDoctor(checks: readonly DoctorCheck[], out: (line: string) => void): Promise<number> {
  let failures = 0;
  for (const check of checks) {
    const outcome = await check
      .run()
      .catch((err: unknown) =>
        failed(
          `the check itself failed (${err instanceof Error ? err.name : 'error'})`,
          'run it again; if it persists, report it with the log',
        ),
      );
    if (outcome.ok) {
      out(`[ok]   ${check.name}: ${outcome.detail}`);
    } else {
      failures += 1;
      out(`[FAIL] ${check.name}: ${outcome.problem}. Fix: ${outcome.fix}`);
    }
  }
  out(failures === 0 ? `All ${checks.length} checks passed.` : `${failures} of ${checks.length} checks failed.`);
  return failures === 0 ? 0 : 1;
}
