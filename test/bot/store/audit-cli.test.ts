import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultAuditFile, runAuditCli } from '../../../src/bot/store/audit-cli.js';
import { PREVIEW_DATA_DIR } from '../../../src/bot/store/data-layout.js';
import { AUDIT_FILE_NAME, openAuditLog } from '../../../src/bot/store/audit-log.js';
import { tempDir } from './support/temp.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) } };
}

async function dataDirWithLog(n: number) {
  const dir = tempDir();
  const file = join(dir, AUDIT_FILE_NAME);
  let t = Date.parse('2025-05-01T00:00:00Z');
  const log = await openAuditLog({ file, clock: { now: () => (t += 60_000) } });
  for (let i = 0; i < n; i++) await log.append({ type: 'request.created', actor: 'U1', requestId: `R${i}` });
  await log.close();
  return { dir, file };
}

describe('audit CLI', () => {
  it("defaults to the bot's folder: $DATA_DIR/audit.jsonl; with nothing configured the preview's where one ran; else ./data", () => {
    expect(defaultAuditFile({ DATA_DIR: '/srv/bot' })).toBe('/srv/bot/audit.jsonl');
    expect(defaultAuditFile({}, () => false)).toBe(join('data', 'audit.jsonl'));
    // Right after `npm start` with nothing configured: the log that run wrote.
    expect(defaultAuditFile({}, (path) => path === PREVIEW_DATA_DIR)).toBe(join('data', 'preview', 'audit.jsonl'));
    // A configured desk never reads the preview's.
    expect(defaultAuditFile({ SLACK_BOT_TOKEN: 'xoxb-1' }, () => true)).toBe(join('data', 'audit.jsonl'));
  });

  it('verify: exit 0 and a summary on a sound log (file found through DATA_DIR)', async () => {
    const { dir } = await dataDirWithLog(3);
    const t = io();
    expect(await runAuditCli(['verify'], t.io, { DATA_DIR: dir })).toBe(0);
    expect(t.out.join('')).toMatch(/ok, 3 entries, last hash [0-9a-f]{64}/);
  });

  it('verify: exit 1 naming the first bad line and why', async () => {
    const { file } = await dataDirWithLog(3);
    const ls = readFileSync(file, 'utf8').split('\n');
    ls[1] = ls[1]!.replace('"R1"', '"R7"');
    writeFileSync(file, ls.join('\n'));
    const t = io();
    expect(await runAuditCli(['verify', '--file', file], t.io, {})).toBe(1);
    expect(t.err.join('')).toMatch(/FAILED at line 2: its hash does not match its content/);
  });

  it('export: writes the CSV of the range to --out', async () => {
    const { file, dir } = await dataDirWithLog(5);
    const out = join(dir, 'out.csv');
    const t = io();
    const code = await runAuditCli(
      ['export', '--file', file, '--from', '2025-05-01T00:02:00Z', '--to', '2025-05-01T00:04:00Z', '--out', out],
      t.io,
      {},
    );
    expect(code).toBe(0);
    const rows = readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(rows.map((r) => r.split(',')[4])).toEqual(['requestId', 'R1', 'R2']);
  });

  it('usage errors and a missing file exit 2', async () => {
    const t = io();
    expect(await runAuditCli(['frobnicate'], t.io, {})).toBe(2);
    expect(await runAuditCli(['verify', '--bogus'], t.io, {})).toBe(2);
    const empty = tempDir();
    mkdirSync(join(empty, 'data'));
    expect(await runAuditCli(['verify'], t.io, { DATA_DIR: join(empty, 'data') })).toBe(2);
    expect(t.err.join('')).toMatch(/usage/);
    expect(t.err.join('')).toMatch(
      /no audit log at .*audit\.jsonl \(set DATA_DIR or DATABASE_URL, or pass --file or --database-url\)/,
    );
  });

  it('--help prints the usage (how to give the database without a password on the command line) and exits 0', async () => {
    for (const flag of ['--help', '-h']) {
      const t = io();
      expect(await runAuditCli([flag], t.io, {})).toBe(0);
      expect(t.err).toEqual([]);
      const usage = t.out.join('');
      expect(usage).toMatch(/^usage: npm run audit -- verify/);
      expect(usage).toMatch(/DATABASE_URL_FILE/);
      expect(usage).toMatch(/PGPASSWORD/);
      expect(usage).not.toMatch(/postgres:\/\/[^@\s]*:[^@\s]*@/);
    }
  });

  it('refuses a password on the command line (visible to every user in ps), without repeating it', async () => {
    const t = io();
    expect(
      await runAuditCli(['verify', '--database-url', 'postgres://desk:Cmd-line-secret-9@127.0.0.1:1/desk'], t.io, {}),
    ).toBe(2);
    const text = t.err.join('');
    expect(text).toMatch(
      /--database-url carries a password: a command line is visible to every user of this machine \(ps\)/,
    );
    expect(text).toMatch(/PGPASSWORD.*DATABASE_URL.*DATABASE_URL_FILE/);
    expect(text).not.toContain('Cmd-line-secret-9');
    const asParameter = io();
    expect(
      await runAuditCli(
        ['verify', '--database-url', 'postgres://desk@127.0.0.1:1/desk?password=Cmd-line-secret-9'],
        asParameter.io,
        {},
      ),
    ).toBe(2);
    expect(asParameter.err.join('')).toMatch(/carries a password/);
    expect(asParameter.err.join('')).not.toContain('Cmd-line-secret-9');
  });

  it('refuses a DATABASE_URL_FILE that others can read, and DATABASE_URL set twice', async () => {
    const dir = tempDir();
    const file = join(dir, 'database-url');
    writeFileSync(file, 'postgres://desk:File-secret-123@127.0.0.1:1/desk\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    const open = io();
    expect(await runAuditCli(['verify'], open.io, { DATABASE_URL_FILE: file })).toBe(2);
    expect(open.err.join('')).toMatch(
      /DATABASE_URL_FILE: .*database-url can be read by group or others \(mode 644\).*chmod 600/,
    );
    const both = io();
    expect(
      await runAuditCli(['verify'], both.io, {
        DATABASE_URL_FILE: file,
        DATABASE_URL: 'postgres://desk@127.0.0.1:1/desk',
      }),
    ).toBe(2);
    expect(both.err.join('')).toMatch(/DATABASE_URL and DATABASE_URL_FILE are both set: keep one/);
    expect(open.err.join('') + both.err.join('')).not.toContain('File-secret-123');
  });
});
