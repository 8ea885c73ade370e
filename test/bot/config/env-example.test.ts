import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envShape } from '../../../src/bot/config/index.js';

const example = readFileSync(fileURLToPath(new URL('../../../.env.example', import.meta.url)), 'utf8');

describe('.env.example', () => {
  it('documents every variable the bot reads, and no other', () => {
    const documented = [...example.matchAll(/^# ([A-Z][A-Z0-9_]+) \(/gm)].map((m) => m[1]);
    expect([...documented].sort()).toEqual(Object.keys(envShape).sort());
  });

  it('has a description line for each variable beyond its heading', () => {
    for (const name of Object.keys(envShape)) {
      const block = example.split(`# ${name} (`)[1]?.split('\n\n')[0] ?? '';
      expect(block.split('\n').length, name).toBeGreaterThanOrEqual(3);
    }
  });
});
