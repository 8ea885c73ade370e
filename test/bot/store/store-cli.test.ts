import { describe, expect, it } from 'vitest';
import { runStoreCli } from '../../../src/bot/store/store-cli.js';
import { tempDir } from './support/temp.js';
import { captureCliOutput } from './support/cli-output.js';

const io = captureCliOutput;

describe('store CLI, without a database', () => {
  it('--help prints the usage: the target from DATABASE_URL or its file, never a password on the command line', async () => {
    const t = io();
    expect(await runStoreCli(['--help'], t.io, {})).toBe(0);
    const usage = t.out.join('');
    expect(usage).toMatch(/^usage: npm run store -- copy/);
    expect(usage).toMatch(/DATABASE_URL_FILE/);
    expect(usage).toMatch(/PGPASSWORD/);
    expect(usage).not.toMatch(/postgres:\/\/[^@\s]*:[^@\s]*@/);
  });

  it('refuses a password in --to, without repeating it, before touching anything', async () => {
    const t = io();
    expect(
      await runStoreCli(
        ['copy', '--to', 'postgres://desk:Cmd-line-secret-9@127.0.0.1:1/desk', '--from', tempDir()],
        t.io,
        {},
      ),
    ).toBe(2);
    const text = t.err.join('');
    expect(text).toMatch(/--to carries a password: a command line is visible to every user of this machine \(ps\)/);
    expect(text).not.toContain('Cmd-line-secret-9');
  });

  it('says where the target comes from when none is given', async () => {
    const t = io();
    expect(await runStoreCli(['copy', '--from', tempDir()], t.io, {})).toBe(2);
    expect(t.err.join('')).toMatch(/no target database: set DATABASE_URL \(or DATABASE_URL_FILE\), or pass --to/);
  });
});
