/** One problem with one environment variable, in plain words and without its value if secret. */
export interface ConfigProblem {
  variable: string;
  message: string;
}

/** Every problem found at start, listed at once so an operator fixes them in one round; never a secret's value. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[]) {
    super(describe(problems));
    this.problems = problems;
  }
}

function describe(problems: readonly ConfigProblem[]): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((p) => `  - ${p.variable}: ${p.message}`);
  return `The configuration is not valid (${count}):\n${lines.join('\n')}\nEvery variable is described in .env.example.`;
}
