import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { runManifestCli } from '../../../../src/bot/slack/manifest/manifest-cli.js';
import { ESCAPED_COMMANDS } from '../../../../src/bot/slack/kit/slack-ids.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixtureSchemaPath = path.join(projectRoot, 'test/fixtures/slack-manifest-schema/manifest.schema.1.0.0.json');
// CI runs with shared/ beside the clone; the fixture is a copy so the test also runs without it.
const sharedSchemaPath = path.resolve(projectRoot, '../shared/slack-manifest-schema/manifest.schema.1.0.0.json');
const manifestPath = path.join(projectRoot, 'manifests/manifest.json');

const readJson = (p: string): unknown => JSON.parse(readFileSync(p, 'utf8'));

interface Manifest {
  features: {
    slash_commands: { command: string; should_escape?: boolean; usage_hint?: string }[];
    app_home: Record<string, boolean>;
  };
  oauth_config: { scopes: { bot: string[] } };
  settings: {
    socket_mode_enabled: boolean;
    interactivity: { is_enabled: boolean; request_url: string; message_menu_options_url: string };
    event_subscriptions: { request_url: string; bot_events: string[] };
  };
}

function validator() {
  // strict: false because Slack's schema uses keywords Ajv does not know ("regex" on
  // background_color, "requires" and "_note" in the function parts); strict mode rejects the
  // whole schema for them. Unknown keywords are ignored, which is what the schema's authors meant.
  const ajv = new Ajv({ strict: false, allErrors: true });
  // The schema's only format is "uri" (for $schema); Ajv ships no formats without ajv-formats.
  ajv.addFormat('uri', { type: 'string', validate: (s: string) => URL.canParse(s) });
  return ajv.compile(readJson(fixtureSchemaPath) as object);
}

describe('manifests/manifest.json', () => {
  const manifest = readJson(manifestPath) as Manifest;

  it("is valid against Slack's manifest schema", () => {
    const validate = validator();
    const ok = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check is not vacuous: a broken manifest is refused', () => {
    const validate = validator();
    const broken = structuredClone(manifest) as unknown as {
      features: { slash_commands: { command: string }[] };
      settings: Record<string, unknown>;
    };
    broken.features.slash_commands[0]!.command = 'withdraw';
    broken.settings.not_a_setting = true;
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath).sort()).toEqual([
      '/features/slash_commands/0/command',
      '/settings',
    ]);
  });

  it('routes commands, interactivity, options and events to the one /slack/events endpoint', () => {
    const urls = [
      manifest.settings.interactivity.request_url,
      manifest.settings.interactivity.message_menu_options_url,
      manifest.settings.event_subscriptions.request_url,
    ];
    for (const url of urls) expect(new URL(url).pathname).toBe('/slack/events');
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(['app_home_opened']);
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.features.app_home).toMatchObject({ home_tab_enabled: true, messages_tab_enabled: true });
  });

  it('asks for no more bot scopes than the bot uses: posting, commands, and the reads of the go-live check (npm run doctor)', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([
      'channels:read',
      'chat:write',
      'commands',
      'groups:read',
      'users:read',
    ]);
  });

  it('gives every command a usage hint and leaves escaping off but for /desk (delegate takes a person)', () => {
    for (const c of manifest.features.slash_commands) {
      expect(c.usage_hint, c.command).toBeTruthy();
      expect(c.should_escape, c.command).toBe((ESCAPED_COMMANDS as readonly string[]).includes(c.command));
    }
  });
});

describe('npm run manifest', () => {
  const run = (argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = runManifestCli(argv, { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join(''), err: err.join('') };
  };
  /** Every string in the manifest that is a URL. */
  const urlsIn = (value: unknown): string[] =>
    typeof value === 'string'
      ? URL.canParse(value) && /^https?:/.test(value)
        ? [value]
        : []
      : typeof value === 'object' && value !== null
        ? Object.values(value).flatMap(urlsIn)
        : [];

  it('without --url: the Socket Mode manifest, as kept in manifests/', () => {
    const { code, out } = run([]);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual(readJson(manifestPath));
  });

  it("with --url: HTTP mode, every URL filled with the public /slack/events, valid against Slack's schema", () => {
    const { code, out, err } = run(['--url', 'https://desk.example.com']);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const manifest = JSON.parse(out) as Manifest;
    const validate = validator();
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
    expect(manifest.settings.socket_mode_enabled).toBe(false);
    const urls = urlsIn(manifest);
    // The five commands' URLs, events, interactivity and the options of the wallet search.
    expect(urls).toHaveLength(8);
    expect(new Set(urls)).toEqual(new Set(['https://desk.example.com/slack/events']));
    expect(out).not.toContain('example.invalid');
  });

  it('keeps a path prefix (a reverse proxy) and does not add /slack/events twice', () => {
    const urls = (url: string) => new Set(urlsIn(JSON.parse(run(['--url', url]).out)));
    expect(urls('https://gw.example.com/desk/')).toEqual(new Set(['https://gw.example.com/desk/slack/events']));
    expect(urls('https://desk.example.com/slack/events')).toEqual(new Set(['https://desk.example.com/slack/events']));
  });

  it('refuses what Slack would not call, in one sentence, with exit code 2', () => {
    expect(run(['--url', 'http://desk.example.com'])).toEqual({
      code: 2,
      out: '',
      err: '--url: Slack sends requests only to https:// URLs, not http://\n',
    });
    expect(run(['--url', 'desk.example.com'])).toMatchObject({ code: 2, err: expect.stringContaining('is not a URL') });
    expect(run(['--url', 'https://desk.example.com/?a=1'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('no query'),
    });
    expect(run(['--nope'])).toMatchObject({ code: 2, err: expect.stringContaining('usage: npm run manifest') });
    expect(run(['--help'])).toMatchObject({ code: 0, out: expect.stringContaining('usage: npm run manifest') });
  });
});

describe('the manifest schema fixture', () => {
  it.skipIf(!existsSync(sharedSchemaPath))(
    'equals the shared original (skipped: ../shared/slack-manifest-schema not beside the project)',
    () => {
      expect(readFileSync(fixtureSchemaPath, 'utf8')).toBe(readFileSync(sharedSchemaPath, 'utf8'));
    },
  );
});
