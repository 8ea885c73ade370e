/**
 * Debian's Chromium driven by playwright-core, for the local desk's browser tests. Playwright's
 * own browser download cannot run here (no network), so the tests use the system Chromium and skip
 * with one line naming the package where there is none.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => Boolean(p),
);

/** The Chromium binary to drive, or undefined. */
export const chromiumPath: string | undefined = CANDIDATES.find((p) => existsSync(p));

/** Why the browser tests are skipped, or undefined when they run. */
export const noBrowserReason: string | undefined = chromiumPath
  ? undefined
  : "no Chromium found (install Debian's package: apt-get install -y chromium, or set CHROMIUM_PATH)";

/**
 * Flags for a closed network: without the background-networking ones Chromium keeps trying to
 * reach Google's hosts and its refused connections slow every start.
 */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launch headless Chromium (playwright gives it a fresh temporary profile and removes it on close). */
export async function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error(noBrowserReason);
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: ARGS, timeout: 30_000 });
}
