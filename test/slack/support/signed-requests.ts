/** The signed-request helpers live in src/devtools/ (the demo uses them too); tests import them from here. */
export * from '../../../src/devtools/slack-requests.js';
