// The demo's output, written as it comes so a failing step shows how far the story got; lines kept for its test.

export interface Transcript {
  readonly lines: readonly string[];
  /** A top-level line (the SANDBOX line, the cast). */
  banner(text: string): void;
  /** A numbered step: "1. Tara checks the balances". */
  step(title: string): void;
  /** What someone does, or what happens off screen ("5 seconds pass on the exchange"). */
  narrate(text: string): void;
  /** What a person sees: `heading` like "#desk-approvals · everyone", the rendered lines indented. */
  shows(heading: string, body: readonly string[]): void;
}

const RULE_WIDTH = 72;

/** A transcript that writes each line to `write` (e.g. stdout) as well as keeping it. */
export function createTranscript(write: (line: string) => void = () => {}): Transcript {
  const lines: string[] = [];
  let steps = 0;
  const out = (line: string) => {
    lines.push(line);
    write(line);
  };
  return {
    lines,
    banner(text) {
      out(text);
    },
    step(title) {
      steps += 1;
      out('');
      out(`${steps}. ${title}`);
      out('═'.repeat(Math.min(RULE_WIDTH, title.length + String(steps).length + 2)));
    },
    narrate(text) {
      out('');
      out(`» ${text}`);
    },
    shows(heading, body) {
      out('');
      const head = `── ${heading} `;
      out(head + '─'.repeat(Math.max(3, RULE_WIDTH - head.length)));
      for (const line of body) out(line === '' ? '' : `  ${line}`);
    },
  };
}
