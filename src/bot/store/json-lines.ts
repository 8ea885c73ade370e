// JSON-lines files read without loading them whole. Only lines ending in '\n' count: bytes after the
// last newline are an append a crash interrupted, never acknowledged.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FILE_MODE, fsyncDirectory, writeAll } from './durable-io.js';

const NEWLINE = 0x0a;
const CHUNK = 1 << 20;

export interface Line {
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Length in bytes, without the newline. */
  length: number;
  /** 1-based. */
  lineNo: number;
}

export interface ScanResult {
  /** Byte offset just after the last newline: everything before it is complete lines. */
  completeEnd: number;
  size: number;
}

/** Streams every complete line of `path` to `visit` in order, reading 1 MiB at a time. */
export async function scanLines(path: string, visit: (line: Line) => void): Promise<ScanResult> {
  const chunks = lineChunks(path);
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) return next.value;
      for (const line of next.value) visit(line);
    }
  } catch (err) {
    // A visit that throws (a corrupt line) leaves the reader paused at its yield: ending it runs
    // its `finally`, which closes the file (else only garbage collection would, DEP0137).
    await chunks.return({ completeEnd: 0, size: 0 });
    throw err;
  }
}

/** Complete lines per 1 MiB read, for a reader that awaits between them; returns where complete lines end. */
export async function* lineChunks(path: string): AsyncGenerator<Line[], ScanResult> {
  const handle = await open(path, 'r');
  try {
    let carry: Buffer = Buffer.alloc(0);
    let carryOffset = 0;
    let position = 0;
    let lineNo = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const data =
        carry.length === 0 ? chunk.subarray(0, bytesRead) : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const lines: Line[] = [];
      let start = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        lineNo++;
        lines.push({ text: data.toString('utf8', start, nl), offset: carryOffset + start, length: nl - start, lineNo });
        start = nl + 1;
      }
      carry = data.subarray(start);
      carryOffset += start;
      if (lines.length > 0) yield lines;
    }
    return { completeEnd: carryOffset, size: position };
  } finally {
    await handle.close();
  }
}

/** Reads `length` bytes at `offset` of an open file as UTF-8 (one line, by its index entry). */
export function readAt(fd: number, offset: number, length: number): string {
  return readBytesAt(fd, offset, length).toString('utf8');
}

function readBytesAt(fd: number, offset: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, offset + done);
    if (n === 0) throw new Error(`unexpected end of file reading ${length} bytes at ${offset}`);
    done += n;
  }
  return buffer;
}

/** Reads backwards: the audit log grows for years, and opening it must not read it all. */
export function readLastLine(path: string): {
  size: number;
  completeEnd: number;
  last?: { text: string; offset: number };
} {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const completeEnd = lastIndexOfNewline(fd, size) + 1;
    if (completeEnd === 0) return { size, completeEnd };
    const start = lastIndexOfNewline(fd, completeEnd - 1) + 1;
    const length = completeEnd - 1 - start;
    return { size, completeEnd, last: { text: readAt(fd, start, length), offset: start } };
  } finally {
    closeSync(fd);
  }
}

/** Index of the last '\n' strictly before `end`, or -1. */
function lastIndexOfNewline(fd: number, end: number): number {
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let position = end;
  while (position > 0) {
    const length = Math.min(buffer.length, position);
    position -= length;
    const n = readSync(fd, buffer, 0, length, position);
    const at = buffer.subarray(0, n).lastIndexOf(NEWLINE);
    if (at !== -1) return position + at;
  }
  return -1;
}

/** Keeps a copy (`<file>.torn-<offset>`); without the cut, the next append would glue onto the fragment. */
export function dropIncompleteTail(path: string, completeEnd: number, size: number): number {
  if (size <= completeEnd) return 0;
  const fd = openSync(path, 'r+');
  try {
    const copy = openSync(`${path}.torn-${completeEnd}`, 'w', FILE_MODE);
    try {
      writeAll(copy, readBytesAt(fd, completeEnd, size - completeEnd));
      fsyncSync(copy);
    } finally {
      closeSync(copy);
    }
    ftruncateSync(fd, completeEnd);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  fsyncDirectory(dirname(path));
  return size - completeEnd;
}
