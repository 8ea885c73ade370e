import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanLines } from '../../../src/bot/store/json-lines.js';
import { tempDir } from './support/temp.js';

/** The files this process holds open at `path` (Linux: /proc/self/fd). */
function openHandles(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

describe('scanLines', () => {
  it('closes its file when the visitor throws (a corrupt line), not on garbage collection (DEP0137)', async () => {
    const file = join(tempDir(), 'lines.jsonl');
    writeFileSync(file, '{"a":1}\nnot json\n{"a":3}\n');
    const seen: string[] = [];
    await expect(
      scanLines(file, (line) => {
        seen.push(line.text);
        JSON.parse(line.text);
      }),
    ).rejects.toThrow(SyntaxError);
    expect(seen).toEqual(['{"a":1}', 'not json']);
    expect(openHandles(file)).toBe(0);
  });

  it('closes its file after a whole scan', async () => {
    const file = join(tempDir(), 'lines.jsonl');
    writeFileSync(file, '{"a":1}\n{"a":2}\npartial');
    const result = await scanLines(file, () => {});
    expect(result).toEqual({ completeEnd: 16, size: 23 });
    expect(openHandles(file)).toBe(0);
  });
});
