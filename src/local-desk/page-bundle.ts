/**
 * How the local desk's page is bundled (one definition: `npm run build`, the server and the
 * browser tests all call this). esbuild turns src/local-desk/page/main.tsx (preact, automatic JSX)
 * and the stylesheet it imports into app.js and app.css.
 */
import { build, type BuildOptions } from 'esbuild';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTES } from './protocol.js';

/** The repository root: this file sits two folders down, as src/local-desk/ or dist/local-desk/. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The page's entry; the page is never compiled by tsc's build, only bundled from its source. */
export const PAGE_ENTRY = join(ROOT, 'src', 'local-desk', 'page', 'main.tsx');

/** Where `npm run build` puts the bundle: dist/local-desk/app.js and app.css. */
export const PAGE_OUT_DIR = join(ROOT, 'dist', 'local-desk');

/** Browsers the page supports: current Chrome, Firefox, Safari and Edge. */
const TARGET = ['chrome110', 'firefox115', 'safari16', 'edge110'];

export function pageBuildOptions(outdir: string = PAGE_OUT_DIR): BuildOptions {
  return {
    entryPoints: { app: PAGE_ENTRY },
    outdir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: TARGET,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'silent',
  };
}

/** Write app.js and app.css to `outdir` (npm run build). */
export async function writePageBundle(outdir: string = PAGE_OUT_DIR): Promise<void> {
  await build(pageBuildOptions(outdir));
}

/** The bundle in memory, for a server or a test that serves it without writing files. */
export async function bundlePage(): Promise<{ js: string; css: string }> {
  const result = await build({ ...pageBuildOptions(), write: false });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  return { js: file('.js'), css: file('.css') };
}

/** The HTML shell that loads the bundle: the page draws itself into <div id="app">. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local desk</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ROUTES.styles}">
<script defer src="${ROUTES.bundle}"></script>
</head>
<body><div id="app"></div></body>
</html>
`;
