// @ts-check
/**
 * The dependency direction (README "Layout"), checked in `npm test` (`npm run lint:deps`).
 * src/bot/ is the product: slack -> engine -> ports -> domain; exchange and store implement the ports.
 * src/stand-ins/ is what stands in for Slack and the exchange; the bot never imports it: only
 * src/main.ts, the composition root that builds the preview, joins the two.
 * Rules are written by folder, never by file, so moving files inside a folder never touches this file.
 * Report: npx depcruise src --config .dependency-cruiser.cjs --output-type err-long
 */

/**
 * A path under one of the given folders of src/bot/ (anchored, so "engine" is not "engines").
 * @param {...string} folders
 */
const bot = (...folders) => `^src/bot/(${folders.join('|')})/`;
/** @param {...string} folders */
const standIn = (...folders) => `^src/stand-ins/(${folders.join('|')})/`;

/** The folders of src/bot/ and src/stand-ins/ that have a rule below; anything else is an unknown layer. */
const BOT = ['domain', 'ports', 'engine', 'exchange', 'store', 'config', 'slack', 'ops', 'runtime'];
const STAND_INS = ['sandbox', 'fake-slack', 'local-desk', 'demo', 'preview'];

/** exchange/ files with pure protocol facts and types, no I/O. */
const EXCHANGE_PURE = ['wire-api', 'schemas', 'statuses', 'assumptions', 'secret'];
/** @param {string[]} names exchange/ files (top level, without .ts) */
const exchangeFiles = (names) => `^src/bot/exchange/(${names.join('|')})\\.ts$`;

/**
 * Allowed arrows: one forbidden rule per layer of the bot, "import nothing in src/ outside these folders".
 * @param {string} name
 * @param {string[]} allowed
 * @param {string} comment
 * @returns {import('dependency-cruiser').IForbiddenRuleType}
 */
const layer = (name, allowed, comment) => ({
  name: `${name}-arrows-down`,
  comment,
  severity: 'error',
  from: { path: bot(name) },
  to: { path: '^src/', pathNot: bot(name, ...allowed) },
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'bot-never-imports-a-stand-in',
      comment:
        'The product runs without its stand-ins: only src/main.ts (the composition root that builds the preview) imports both.',
      severity: 'error',
      from: { path: '^src/bot/' },
      to: { path: '^src/stand-ins/' },
    },
    layer(
      'domain',
      [],
      'domain/ is the pure core (money, snapshots, policy, state machine): it imports nothing else of src/.',
    ),
    layer(
      'ports',
      ['domain'],
      'ports/ is every port the engine is given (exchange, store, leadership, notifier, logger, ids, clock): domain only.',
    ),
    layer(
      'engine',
      ['domain', 'ports'],
      'The engine sees the exchange and the store only through ports/; it knows nothing of Slack or the config.',
    ),
    {
      name: 'engine-base-below-stages',
      comment:
        "The engine's shared base (the files at engine/ top level, engine.ts apart: it composes the stages) imports none of its " +
        'stages (approval/, execution/, polling/, compliance/, notices/) nor rounds/ (the tick and the start-up, which compose them).',
      severity: 'error',
      from: { path: '^src/bot/engine/[^/]+\\.ts$', pathNot: '^src/bot/engine/engine\\.ts$' },
      to: { path: '^src/bot/engine/[^/]+/' },
    },
    layer(
      'exchange',
      ['domain', 'ports'],
      'The exchange client and its adapter (exchange/adapter/) implement ports/, never reaching into the engine.',
    ),
    layer(
      'store',
      ['domain', 'ports', 'exchange'],
      'The store implements the store ports over lowdb or PostgreSQL; nothing of the engine or above it.',
    ),
    {
      name: 'ports-only-in-ports-folder',
      comment:
        'Every port the engine is given is defined in ports/: the adapters (store/, exchange/) implement ports, so a port they ' +
        'had to import from engine/ would be one outside ports/.',
      severity: 'error',
      from: { path: bot('store', 'exchange') },
      to: { path: bot('engine') },
    },
    layer(
      'config',
      ['domain', 'exchange'],
      'config/ reads the environment and checks it with domain and pure exchange facts; it knows no listener, engine or store.',
    ),
    layer(
      'slack',
      ['engine', 'domain', 'ports', 'config'],
      'slack/ drives the engine, reads the exchange only through ports/ and renders domain facts; never the store or the exchange.',
    ),
    {
      name: 'slack-kit-below-features',
      comment: 'slack/kit/ is what every Slack feature builds with: it imports no feature and not the shell.',
      severity: 'error',
      from: { path: '^src/bot/slack/kit/' },
      to: { path: '^src/bot/slack/', pathNot: '^src/bot/slack/kit/' },
    },
    {
      name: 'slack-shell-above-features',
      comment:
        'slack/shell/ (Bolt, the registration of every feature) is imported by no feature: only the runtime and stand-ins start it.',
      severity: 'error',
      from: { path: '^src/bot/slack/', pathNot: '^src/bot/slack/shell/' },
      to: { path: '^src/bot/slack/shell/' },
    },
    layer(
      'ops',
      ['engine', 'domain', 'ports'],
      'ops/ (health, readiness, metrics, doctor checks) watches the desk through the ports and numbers the runtime hands it.',
    ),
    layer(
      'runtime',
      ['domain', 'ports', 'engine', 'exchange', 'store', 'config', 'slack', 'ops'],
      'runtime/ composes the bot; it never imports a stand-in.',
    ),
    {
      name: 'sandbox-arrows-down',
      comment: 'The sandbox exchange shares the protocol facts of bot/exchange/ and nothing else of the bot.',
      severity: 'error',
      from: { path: standIn('sandbox') },
      to: { path: '^src/', pathNot: ['^src/bot/(exchange|domain|ports)/', standIn('sandbox')] },
    },
    {
      name: 'fake-slack-stands-alone',
      comment: 'The fake Slack Web API imports nothing of src/.',
      severity: 'error',
      from: { path: standIn('fake-slack') },
      to: { path: '^src/', pathNot: standIn('fake-slack') },
    },
    {
      name: 'local-desk-protocol-stands-alone',
      comment: 'local-desk/protocol.ts is the one definition page and server share: it imports nothing of src/.',
      severity: 'error',
      from: { path: '^src/stand-ins/local-desk/protocol\\.ts$' },
      to: { path: '^src/', pathNot: '^src/stand-ins/local-desk/protocol\\.ts$' },
    },
    {
      name: 'local-desk-page-only-protocol',
      comment: 'The page runs in a browser: of src/ it imports only itself and local-desk/protocol.ts.',
      severity: 'error',
      from: { path: '^src/stand-ins/local-desk/page/' },
      to: { path: '^src/', pathNot: '^src/stand-ins/local-desk/(page/|protocol\\.ts$)' },
    },
    {
      name: 'local-desk-page-no-node',
      comment: 'The page runs in a browser: no Node core module.',
      severity: 'error',
      from: { path: '^src/stand-ins/local-desk/page/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'local-desk-server-arrows-down',
      comment:
        "The local desk's server knows the fake Slack API and the protocol; the bot and the sandbox are handed to it by stand-ins/preview/.",
      severity: 'error',
      from: { path: '^src/stand-ins/local-desk/server/' },
      to: { path: '^src/', pathNot: '^src/stand-ins/(local-desk/(server/|protocol\\.ts$)|fake-slack/)' },
    },
    {
      name: 'config-only-pure-exchange',
      comment:
        'config/ reads only pure exchange files, plus signer.ts (a bad key stops the bot at start) and secret-file.ts (the one reader of a secret file).',
      severity: 'error',
      from: { path: bot('config') },
      to: { path: bot('exchange'), pathNot: exchangeFiles([...EXCHANGE_PURE, 'signer', 'secret-file']) },
    },
    {
      name: 'domain-no-io',
      comment: 'domain/ is pure: no file, network or process I/O, no lowdb, no Slack library.',
      severity: 'error',
      from: { path: bot('domain') },
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
        'A new folder of src/bot/ or src/stand-ins/ (or a new top-level file of src/) has no arrows yet: give it a layer rule above (or make it part of ' +
        'the composition) before it imports another layer.',
      severity: 'error',
      from: {
        path: '^src/(bot/[^/]+|stand-ins/[^/]+|[^/]+)',
        pathNot: ['^src/main\\.ts$', bot(...BOT), standIn(...STAND_INS)],
      },
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
