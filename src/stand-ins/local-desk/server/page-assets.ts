// The page's script and stylesheet: the files `npm run build` wrote, or bundled in memory when running from source.
import { readFile } from 'node:fs/promises';
import { bundlePage, type PageAssets } from './page-build.js';

/** Where the build writes the bundle: dist/stand-ins/local-desk/, beside this file's folder in dist. */
export const BUILT_ASSETS = { js: new URL('../app.js', import.meta.url), css: new URL('../app.css', import.meta.url) };

export async function loadPageAssets(): Promise<PageAssets> {
  const built = await Promise.all([readFile(BUILT_ASSETS.js, 'utf8'), readFile(BUILT_ASSETS.css, 'utf8')]).catch(
    () => undefined,
  );
  if (built) return { js: built[0], css: built[1] };
  return bundlePage({ minify: false });
}
