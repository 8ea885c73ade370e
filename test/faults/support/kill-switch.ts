/**
 * Seeded points of execution to die at: every call into a port (store write, audit append,
 * exchange call) is two steps, one before it starts and one after it settles. At the chosen step
 * the process sends itself SIGKILL: no handler runs, nothing is flushed, exactly as an OOM kill.
 */
export class KillSwitch {
  #steps = 0;

  /** `at`: the step to die at (1-based); undefined: never. */
  constructor(
    private readonly at: number | undefined,
    private readonly die: () => void = () => process.kill(process.pid, 'SIGKILL'),
  ) {}

  get steps(): number {
    return this.#steps;
  }

  step(): void {
    this.#steps += 1;
    if (this.#steps === this.at) this.die();
  }

  /** `port` with a step before each method call and one after its promise settles. */
  wrap<T extends object>(port: T): T {
    return new Proxy(port, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          this.step();
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (result instanceof Promise) {
            return result.then(
              (v) => (this.step(), v),
              (e: unknown) => {
                this.step();
                throw e;
              },
            );
          }
          return result;
        };
      },
    });
  }
}
