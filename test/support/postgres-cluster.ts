/**
 * A throwaway PostgreSQL cluster for tests and the bench: initdb in a temporary folder, started
 * on a free 127.0.0.1 port with its unix socket in that folder, password authentication over TCP
 * (so DATABASE_URL carries a password, as in production), stopped and removed after. initdb
 * refuses to run as root: as root, the cluster belongs to the `postgres` user (runuser).
 * About half a second to start (initdb --no-sync: 0.4 s, pg_ctl start: 0.1 s, measured here), and
 * 80 ms per new database. A vitest run starts one (postgres-global.ts) and its files reach it with
 * `joinPostgres`.
 *
 * Where no server is installed, `noPostgresReason` says so in one line (postgres.ts skips with it).
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const run = promisify(execFile);

/** The newest installed server's bin folder (Debian: /usr/lib/postgresql/<major>/bin), or PG_BIN. */
function findBin(): string | undefined {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, 'initdb')) ? process.env.PG_BIN : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  return majors.map((v) => join(root, v, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

const bin = findBin();

/** Why the PostgreSQL tests are skipped, or undefined when they run. */
export const noPostgresReason: string | undefined = bin
  ? undefined
  : 'no PostgreSQL server (apt-get install -y postgresql)';

/** Where a running cluster listens: what a test process needs to reach the run's cluster. */
export interface PgAddress {
  readonly port: number;
  readonly password: string;
}

export interface PgCluster extends PgAddress {
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database> */
  url(database: string): string;
  /** A new empty database (a fresh name when none is given); resolves with its URL. */
  createDatabase(name?: string): Promise<string>;
  /** `pg_ctl restart -m fast`: every session is ended, the server is back when this resolves. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** Keep fsync on (the bench measures real commits); tests turn it off. */
  fsync?: boolean;
}

let databases = 0;
/** Unique across the processes of a run that share one cluster. */
const freshName = () => `t${process.pid}_${++databases}_${randomBytes(3).toString('hex')}`;

/** `url` and `createDatabase` of the cluster at `address`. */
function databasesOf({ port, password }: PgAddress): Pick<PgCluster, 'url' | 'createDatabase'> {
  const url = (database: string) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(name = freshName()) {
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
  };
}

/**
 * The run's shared cluster, seen from one test file: databases of its own, dropped by stop(); no
 * restart (other files use the server at the same time: a test that restarts it starts its own).
 */
export function joinPostgres(address: PgAddress): PgCluster {
  const { url, createDatabase } = databasesOf(address);
  const created: string[] = [];
  return {
    ...address,
    url,
    async createDatabase(name = freshName()) {
      created.push(name);
      return createDatabase(name);
    },
    restart: () =>
      Promise.reject(
        new Error(
          "the run's shared PostgreSQL is not restarted by one file: usePostgres({ own: true }) starts a cluster of the file's own",
        ),
      ),
    async stop() {
      // Each empty database holds ~8 MB on disk; a run creates a few hundred.
      const admin = new pg.Client({ connectionString: url('postgres') });
      await admin.connect();
      try {
        for (const name of created.splice(0)) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** Starts a cluster; stop() removes it and its folder. */
export async function startPostgres(options: ClusterOptions = {}): Promise<PgCluster> {
  if (!bin) throw new Error(noPostgresReason);
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'pg-test-'));
  if (asRoot) chownSync(dir, ...postgresIds());
  const password = randomBytes(12).toString('hex');
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, password, { mode: 0o600 });
  if (asRoot) chownSync(pwfile, ...postgresIds());
  const data = join(dir, 'data');
  const as = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args);

  try {
    await as('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      `--pwfile=${pwfile}`,
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    `-c fsync=${options.fsync ? 'on' : 'off'}`,
    '-c max_connections=200',
  ].join(' ');
  const ctl = (...args: string[]) =>
    as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', ...args]);
  try {
    await ctl('-o', serverOptions, 'start');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  // A test process that exits without its afterAll (a crash) must not leave a server running.
  const stopOnExit = () => {
    try {
      execFileSync(
        asRoot ? 'runuser' : join(bin, 'pg_ctl'),
        [...(asRoot ? ['-u', 'postgres', '--', join(bin, 'pg_ctl')] : []), '-D', data, '-m', 'immediate', 'stop'],
        { stdio: 'ignore' },
      );
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopOnExit);

  let stopped = false;
  return {
    port,
    password,
    ...databasesOf({ port, password }),
    async restart() {
      await ctl('-m', 'fast', '-o', serverOptions, 'restart');
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopOnExit);
      await ctl('-m', 'immediate', 'stop').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** uid and gid of the `postgres` user (the Debian package creates it). */
function postgresIds(): [number, number] {
  const passwd = execFileSync('getent', ['passwd', 'postgres'], { encoding: 'utf8' }).split(':');
  return [Number(passwd[2]), Number(passwd[3])];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
