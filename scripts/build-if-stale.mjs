// @ts-check
// Before `npm start` and operator commands: builds dist/ when missing or stale, never where build tools are
// pruned (the image runs what was built). Plain JavaScript: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What the build reads: a change to any of them makes the build stale. */
const SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
/** What `npm run build` writes (tsc first, the page bundle last); the oldest dates the build. */
const OUTPUTS = ['dist/main.js', 'dist/stand-ins/local-desk/app.js', 'dist/stand-ins/local-desk/app.css'];

/** Newest modification time under `path` (0 when it does not exist). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted or renamed file changes its folder's time
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

function hasBuildTools() {
  try {
    createRequire(import.meta.url).resolve('typescript');
    return true;
  } catch {
    return false;
  }
}

const outputs = OUTPUTS.map((p) => join(ROOT, p));
const missing = outputs.some((p) => !existsSync(p));
const builtAt = missing ? 0 : Math.min(...outputs.map((p) => statSync(p).mtimeMs));
const stale = missing || SOURCES.some((p) => newest(join(ROOT, p)) > builtAt);

if (stale && hasBuildTools()) {
  // The build's own output goes to stderr: a command's stdout (a CSV export, a manifest) stays clean.
  const npm = process.env.npm_execpath;
  const [command, args] = npm
    ? [process.execPath, [npm, 'run', 'build', '--silent']]
    : ['npm', ['run', 'build', '--silent']];
  const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) {
    console.error('The build failed (npm run build): see above.');
    process.exit(1);
  }
} else if (missing) {
  console.error(
    'There is no build in dist/ and no build tools here (npm prune --omit=dev?): run `npm ci && npm run build` first.',
  );
  process.exit(1);
} else if (stale) {
  console.error(
    'Note: dist/ is older than the sources, and there are no build tools here to rebuild it: running what was built.',
  );
}
