// `npm run manifest [-- --url https://desk.example.com] [--out file]`: the manifest to paste at
// api.slack.com/apps, Socket Mode by default, HTTP mode with --url. Exit 0 written, 2 usage error.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { httpManifest, PublicUrlError, type AppManifest } from './http-manifest.js';

/** The manifest kept in the repository, from this file in src/ or dist/ (both at slack/manifest/). */
export const MANIFEST_FILE = new URL('../../../../manifests/manifest.json', import.meta.url);

export interface ManifestCliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const USAGE =
  'usage: npm run manifest [-- --url https://your.public.host] [--out file]\n' +
  '  without --url: the Socket Mode manifest (the default; no public URL needed)\n' +
  '  with --url:    HTTP mode, every request URL at <url>/slack/events\n';

/** Runs the tool on `argv` (without node and script) and returns the exit code. */
export function runManifestCli(argv: string[], io: ManifestCliIo, base: AppManifest = readManifest()): number {
  let values: { url?: string | undefined; out?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { url: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  let manifest: AppManifest;
  try {
    manifest = values.url === undefined ? base : httpManifest(base, values.url);
  } catch (err) {
    if (!(err instanceof PublicUrlError)) throw err;
    io.err(`--url: ${err.message}\n`);
    return 2;
  }
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  if (values.out === undefined) {
    io.out(text);
  } else {
    writeFileSync(values.out, text);
    io.err(`manifest for ${values.url === undefined ? 'Socket Mode' : 'HTTP mode'} written to ${values.out}\n`);
  }
  return 0;
}

export function readManifest(): AppManifest {
  return JSON.parse(readFileSync(MANIFEST_FILE, 'utf8')) as AppManifest;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = runManifestCli(process.argv.slice(2), {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  });
}
