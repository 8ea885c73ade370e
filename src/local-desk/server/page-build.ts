/**
 * The page's bundle: src/local-desk/page/main.tsx (Preact, automatic JSX runtime) and its
 * stylesheet app.css, bundled by esbuild for the browser. One definition for `npm run build`
 * (written to dist/local-desk/) and for running from source (`npm run dev`, tests: in memory).
 */
import type { BuildOptions } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The repository's root, from this file in src/local-desk/server/ or dist/local-desk/server/. */
const ROOT = new URL('../../../', import.meta.url);

export const PAGE_SOURCES = {
  script: fileURLToPath(new URL('src/local-desk/page/main.tsx', ROOT)),
  styles: fileURLToPath(new URL('src/local-desk/page/app.css', ROOT)),
};

export interface PageAssets {
  js: string;
  css: string;
}

const COMMON: BuildOptions = {
  bundle: true,
  write: false,
  platform: 'browser',
  // What Debian's Chromium and any current browser run as is.
  target: ['es2022'],
  legalComments: 'none',
  logLevel: 'silent',
};

/** Bundle the page; `minify` for the build, readable from source. */
export async function bundlePage({ minify }: { minify: boolean }): Promise<PageAssets> {
  // Loaded only when bundling: a built `npm start` (and any real deployment) never loads esbuild.
  const { build } = await import('esbuild');
  const [script, styles] = await Promise.all([
    build({
      ...COMMON,
      entryPoints: [PAGE_SOURCES.script],
      outfile: 'app.js',
      format: 'esm',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      minify,
      sourcemap: minify ? false : 'inline',
    }),
    build({ ...COMMON, entryPoints: [PAGE_SOURCES.styles], outfile: 'app.css', minify }),
  ]);
  const text = (files: typeof script.outputFiles, ext: string) => (files ?? []).filter((f) => f.path.endsWith(ext)).map((f) => f.text).join('\n');
  // CSS the script imports (if it does) comes before the stylesheet's own rules.
  return { js: text(script.outputFiles, '.js'), css: [text(script.outputFiles, '.css'), text(styles.outputFiles, '.css')].filter(Boolean).join('\n') };
}
