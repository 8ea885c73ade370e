// The page's esbuild bundle (Preact, with app.css), one definition for `npm run build`, running from source
// and the browser tests.
import type { BuildOptions } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The repository's root, from this file in src/stand-ins/local-desk/server/ or dist/stand-ins/local-desk/server/. */
const ROOT = new URL('../../../../', import.meta.url);

/** The page's entry; the page is never compiled by tsc's build, only bundled from its source. */
export const PAGE_ENTRY = fileURLToPath(new URL('src/stand-ins/local-desk/page/main.tsx', ROOT));

export interface PageAssets {
  js: string;
  css: string;
}

const OPTIONS: BuildOptions = {
  entryPoints: { app: PAGE_ENTRY },
  outdir: 'out',
  bundle: true,
  write: false,
  platform: 'browser',
  format: 'esm',
  // What Debian's Chromium and any current browser run as is.
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'silent',
};

/** Bundle the page; `minify` for the build, readable (with an inline source map) from source. */
export async function bundlePage({ minify }: { minify: boolean }): Promise<PageAssets> {
  // Loaded only when bundling: a built `npm start` (and any real deployment) never loads esbuild.
  const { build } = await import('esbuild');
  const result = await build({ ...OPTIONS, minify, sourcemap: minify ? false : 'inline' });
  const text = (ext: string) =>
    (result.outputFiles ?? [])
      .filter((f) => f.path.endsWith(ext))
      .map((f) => f.text)
      .join('\n');
  return { js: text('.js'), css: text('.css') };
}
