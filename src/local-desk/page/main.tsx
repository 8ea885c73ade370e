/**
 * PLACEHOLDER, only on the desk-server branch: the page is built on the desk-page branch, whose
 * main.tsx replaces this file at the merge. It exists so the server's bundling and serving can be
 * built and tested here; it renders one line and nothing else.
 */
import { h, render } from 'preact';

declare const document: { getElementById(id: string): unknown };

render(h('p', null, 'The local desk page is not built on this branch (desk-page has it).'), document.getElementById('app') as Parameters<typeof render>[1]);
