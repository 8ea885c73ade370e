// `npm run build` (after tsc): bundles the page into dist/stand-ins/local-desk/ for the compiled server.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundlePage } from './page-build.js';
import { BUILT_ASSETS } from './page-assets.js';

const assets = await bundlePage({ minify: true });
await mkdir(new URL('.', BUILT_ASSETS.js), { recursive: true });
await Promise.all([writeFile(BUILT_ASSETS.js, assets.js), writeFile(BUILT_ASSETS.css, assets.css)]);
console.log(
  `local desk page: ${fileURLToPath(BUILT_ASSETS.js)} (${Math.round(assets.js.length / 1024)} KB), ${fileURLToPath(BUILT_ASSETS.css)} (${Math.round(assets.css.length / 1024)} KB)`,
);
