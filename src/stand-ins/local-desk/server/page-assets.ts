/**
 * The page's script and stylesheet as the server sends them: the files `npm run build` wrote
 * next to the compiled server (dist/stand-ins/local-desk/app.js and app.css), or, when running from source
 * (`npm run dev`, tests), bundled in memory at start.
 */
import { readFile } from 'node:fs/promises';
import { bundlePage, type PageAssets } from './page-build.js';

/** Where the build writes the bundle: dist/stand-ins/local-desk/, beside this file's folder in dist. */
export const BUILT_ASSETS = { js: new URL('../page/shell/app.js', import.meta.url), css: new URL('../app.css', import.meta.url) };

export async function loadPageAssets(): Promise<PageAssets> {
  const built = await Promise.all([readFile(BUILT_ASSETS.js, 'utf8'), readFile(BUILT_ASSETS.css, 'utf8')]).catch(() => undefined);
  if (built) return { js: built[0], css: built[1] };
  return bundlePage({ minify: false });
}
