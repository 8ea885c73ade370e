/**
 * auth.test with the bot token, asked once and remembered: the workspace binding reads our team
 * and app from it (workspace-binding.ts), and readiness asks whether it ever succeeded. It is
 * asked at start, not only at the first request, so a refused token shows in readiness before
 * anyone types a command. A failed check is asked again, by the next request or, at most every
 * RECHECK_MS, by readiness, so a Slack outage at start clears by itself.
 */
export type AuthTestAnswer = { team_id?: string; enterprise_id?: string; app_id?: string };

export const RECHECK_MS = 10_000;

export class SlackAuthCheck {
  #passed = false;
  #running: Promise<AuthTestAnswer> | undefined;
  #lastTry = -Infinity;

  constructor(
    private readonly authTest: () => Promise<AuthTestAnswer>,
    private readonly onFailure: (message: string) => void,
  ) {}

  /** auth.test's answer; concurrent callers share one call, and a success is kept. */
  run(): Promise<AuthTestAnswer> {
    this.#lastTry = performance.now();
    this.#running ??= this.authTest().then(
      (answer) => {
        this.#passed = true;
        return answer;
      },
      (err: unknown) => {
        this.#running = undefined;
        // Web API errors name the method and Slack's code (invalid_auth, account_inactive), never the token.
        this.onFailure(`Slack auth.test failed: ${err instanceof Error ? err.message : 'unknown error'}`);
        throw err;
      },
    );
    return this.#running;
  }

  /** Whether auth.test has succeeded; while it has not, asks again now and then (see the file comment). */
  passed(): boolean {
    if (!this.#passed && this.#running === undefined && performance.now() - this.#lastTry >= RECHECK_MS) void this.run().catch(() => undefined);
    return this.#passed;
  }
}
