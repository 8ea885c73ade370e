/** What a store CLI wrote, captured: its `CliIo` (store/cli-args.ts) and the lines on each stream. */
export function captureCliOutput() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) },
    text: () => out.join('') + err.join(''),
  };
}
