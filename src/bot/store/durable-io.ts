// The few system calls that make a write survive a crash. A lone live-file write fsyncs on the calling
// thread (fastest); group commits, the key-value file and the audit log on the thread pool, so Slack
// acks keep flowing in a burst. Measurements: docs/store.md "Where fsync runs".
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  write,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner read/write only: these files hold who moved how much money where. */
export const FILE_MODE = 0o600;
/** The data folder: only the bot's own user may list or read it. */
export const DIR_MODE = 0o700;

/** Names of temporary files; the prefix lets an operator recognise debris from a crash. */
export function tempFileName(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Writes every byte of `data` at the descriptor's position (write(2) may write fewer). */
export function writeAll(fd: number, data: Buffer): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}

/** fsync a directory so a rename or a new file in it is itself durable. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fdatasync is enough: it flushes the size too, the only metadata needed to read the data back. */
export function appendDurably(fd: number, data: Buffer): void {
  writeAll(fd, data);
  fdatasyncSync(fd);
}

/** replaceFileDurably on the calling thread: the fastest for a lone write, but it blocks the loop. */
export function replaceFileDurablySync(target: string, text: string): void {
  const temp = tempFileName(target);
  const fd = openSync(temp, 'wx', FILE_MODE);
  try {
    writeAll(fd, Buffer.from(text, 'utf8'));
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  fsyncDirectory(dirname(target));
}

/** Temp file, fsync, rename, folder fsync: a reader sees old or new, never a mix; a crash leaves at worst an unread `.tmp`. */
export async function replaceFileDurably(target: string, text: string): Promise<void> {
  const temp = tempFileName(target);
  const file = await open(temp, 'wx', FILE_MODE);
  try {
    await file.writeFile(text, 'utf8');
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(temp, { force: true });
    throw err;
  }
  await file.close();
  try {
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  const dir = await open(dirname(target), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);

/** appendDurably without blocking the event loop (the audit log's group commits use it). */
export async function appendDurablyAsync(fd: number, data: Buffer): Promise<void> {
  let done = 0;
  while (done < data.length) done += (await writeAsync(fd, data, done, data.length - done)).bytesWritten;
  await fdatasyncAsync(fd);
}
