/** The signed-request helpers live in src/stand-ins/fake-slack/ (the demo uses them too); tests import them from here. */
export * from '../../../../src/stand-ins/fake-slack/slack-requests.js';
