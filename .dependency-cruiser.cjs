// @ts-check
/**
 * The dependency direction of the design (README "Layout"), checked by dependency-cruiser inside `npm test`
 * (`npm run lint:deps`): slack -> app -> ports -> domain; exchange and store implement the ports;
 * the sandbox is reached only from the composition (main.ts, runtime/, demo/); no cycles.
 *
 * Every rule is written by top-level folder of src/ (path patterns), never by single file, so
 * moving files inside a folder never touches this file. The only file names below are the
 * exchange's pure modules that config/ may read (see config-only-pure-exchange).
 *
 * See the report: npx depcruise src --config .dependency-cruiser.cjs --output-type err-long
 */

/**
 * A path under one of the given top-level folders of src/ (anchored, so "app" is not "apps").
 * @param {...string} folders
 */
const under = (...folders) => `^src/(${folders.join('|')})/`;

/** The top-level folders of src/ that have a rule below; anything else is an unknown layer. */
const LAYERS = ['domain', 'ports', 'app', 'exchange', 'store', 'config', 'slack', 'ops', 'sandbox', 'devtools', 'demo', 'runtime', 'local-desk'];

/** exchange/ files with pure protocol facts and types, no I/O. */
const EXCHANGE_PURE = ['wire-api', 'schemas', 'statuses', 'assumptions', 'secret'];
/** @param {string[]} names exchange/ files (top level, without .ts) */
const exchangeFiles = (names) => `^src/exchange/(${names.join('|')})\\.ts$`;

/**
 * Allowed arrows: one forbidden rule per layer, "import nothing in src/ outside these folders".
 * A folder may always import itself.
 * @param {string} name
 * @param {string[]} allowed
 * @param {string} comment
 * @returns {import('dependency-cruiser').IForbiddenRuleType}
 */
const layer = (name, allowed, comment) => ({
  name: `${name}-arrows-down`,
  comment,
  severity: 'error',
  from: { path: under(name) },
  to: { path: '^src/', pathNot: under(name, ...allowed) },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    layer('domain', [], 'domain/ is the pure core (money, snapshots, policy, state machine): it imports nothing else of src/.'),
    layer(
      'ports',
      ['domain'],
      'ports/ is the leaf both the engine and the exchange import (clock, list bounds, the exchange port in the engine\'s terms, its error): domain only.',
    ),
    layer(
      'app',
      ['domain', 'ports'],
      'The engine sees the exchange only through ports/exchange.ts, never exchange/; it knows nothing of Slack, the store or the config.',
    ),
    layer(
      'exchange',
      ['domain', 'ports'],
      'The client and the port\'s adapter (exchange/engine-port/) know nothing of the engine: they import the ports, never app/.',
    ),
    layer('store', ['app', 'domain', 'ports', 'exchange'], 'The store implements app\'s ports over lowdb; nothing above it (slack, config, runtime).'),
    layer(
      'config',
      ['domain', 'exchange'],
      'config/ reads the environment and checks it with domain and exchange facts (see config-only-pure-exchange); it knows no listener, engine or store.',
    ),
    layer(
      'slack',
      ['app', 'domain', 'ports', 'config'],
      'slack/ drives the engine (app/), reads the exchange only through the ports (ports/exchange-port.ts, ports/exchange-listings.ts) and renders domain facts; it imports neither the store nor the exchange (issue 12).',
    ),
    layer(
      'ops',
      ['app', 'domain', 'ports'],
      'ops/ (health, readiness, metrics) watches the desk through the engine\'s ports (requests, audit, key-value) and plain ' +
        'numbers the composition hands it (exchange calls, Slack acks, leadership); it knows no Slack, store, exchange or config.',
    ),
    layer('sandbox', ['exchange', 'domain', 'ports'], 'The local exchange shares the protocol facts of exchange/ and nothing of the bot.'),
    layer('devtools', [], 'The fake Slack Web API stands alone: it imports nothing of src/.'),
    // demo/, runtime/ and main.ts are the composition: they may import anything (no rule).

    // local-desk/ is three parts: protocol.ts (what page and server say), page/ (runs in a browser),
    // server/ (folds the fake Slack API's calls, serves the page, signs the page's actions for the bot).
    {
      name: 'local-desk-protocol-stands-alone',
      comment: 'local-desk/protocol.ts is the one definition page and server share: it imports nothing of src/.',
      severity: 'error',
      from: { path: '^src/local-desk/protocol\\.ts$' },
      to: { path: '^src/', pathNot: '^src/local-desk/protocol\\.ts$' },
    },
    {
      name: 'local-desk-page-only-protocol',
      comment: 'The page runs in a browser: of src/ it imports only itself and local-desk/protocol.ts.',
      severity: 'error',
      from: { path: '^src/local-desk/page/' },
      to: { path: '^src/', pathNot: '^src/local-desk/(page/|protocol\\.ts$)' },
    },
    {
      name: 'local-desk-page-no-node',
      comment: 'The page runs in a browser: no Node core module.',
      severity: 'error',
      from: { path: '^src/local-desk/page/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'local-desk-server-arrows-down',
      comment:
        'The local desk\'s server knows the fake Slack API and the signed requests (devtools/) and the protocol; ' +
        'the bot, the sandbox and the Host/Origin check are given to it by the composition (runtime/local-desk.ts).',
      severity: 'error',
      from: { path: '^src/local-desk/server/' },
      to: { path: '^src/', pathNot: '^src/(local-desk/(server/|protocol\\.ts$)|devtools/)' },
    },
    {
      name: 'local-desk-only-from-composition',
      comment: 'The local desk exists only in the preview: only main.ts and runtime/ (and the local desk itself) import it.',
      severity: 'error',
      from: { pathNot: ['^src/main\\.ts$', under('runtime', 'local-desk')] },
      to: { path: under('local-desk') },
    },

    {
      name: 'config-only-pure-exchange',
      comment:
        'config/ reads only pure exchange files, plus signer.ts: it parses the key at start (no network) ' +
        'so a bad key stops the bot at once; and secret-file.ts, the one reader of a file holding a secret.',
      severity: 'error',
      from: { path: under('config') },
      to: { path: under('exchange'), pathNot: exchangeFiles([...EXCHANGE_PURE, 'signer', 'secret-file']) },
    },
    {
      name: 'sandbox-only-from-composition',
      comment: 'The sandbox is a local stand-in for the exchange: only main.ts, runtime/ and demo/ (and the sandbox itself) may import it.',
      severity: 'error',
      from: { pathNot: ['^src/main\\.ts$', under('runtime', 'demo', 'sandbox')] },
      to: { path: under('sandbox') },
    },
    {
      name: 'domain-no-io',
      comment: 'domain/ is pure: no file, network or process I/O, no lowdb, no Slack library.',
      severity: 'error',
      from: { path: under('domain') },
      to: {
        path: [
          '^(node:)?(fs|http|https|http2|net|child_process)(/|$)', // core modules resolve without "node:"
          '(^|node_modules/)(lowdb|@slack)(/|$)', // resolved into node_modules, or as written if unresolved
        ],
      },
    },
    {
      name: 'no-unknown-layer',
      comment:
        'A new top-level file or folder of src/ has no arrows yet: give it a layer rule above (or make it part of ' +
        'the composition) before it imports another layer.',
      severity: 'error',
      from: { path: '^src/([^/]+)', pathNot: ['^src/main\\.ts$', under(...LAYERS)] },
      to: { path: '^src/', pathNot: '^src/$1(/|$)' },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere in src/: a cycle makes load order matter and blurs which layer owns what.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment:
        'Every import must resolve, or the path rules above silently see nothing (the type-check catches real ' +
        'misses; this catches a resolution setup that went wrong).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are arrows too (the hand-written test counted them).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Resolve packages as Node's ESM loader does (the project is "type": "module").
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
