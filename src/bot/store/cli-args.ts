// The operator tools' command lines: node's parseArgs with positionals and `--help`; a usage error
// or help is said on the tool's io and ends in the exit code every tool uses (2, 0).
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a tool says what it has to say (the tests capture it). */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export function parseCommandLine<const O extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: O,
  usage: string,
  io: CliIo,
) {
  const config = {
    args: argv,
    allowPositionals: true as const,
    options: { ...options, help: { type: 'boolean' as const, short: 'h' } },
  };
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    io.err(`${(err as Error).message}\n${usage}`);
    return { exit: 2 } as const;
  }
  if ((parsed.values as { help?: boolean }).help) {
    io.out(usage);
    return { exit: 0 } as const;
  }
  return parsed;
}
