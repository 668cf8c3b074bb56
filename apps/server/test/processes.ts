/**
 * Server processes for tests and benches: a free port, a child process whose output is kept, and the
 * wait until it answers /api/health. One implementation for the server suite's children
 * (test/server-child.ts), the browser tests' built servers and clusters (e2e/support/) and the
 * scale-out bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface SpawnedProcess {
  process: ChildProcess;
  /** What it printed (stdout and stderr), the last `keepChars` characters. */
  output(): string;
  /** The exit code (-1: ended by a signal). */
  exited: Promise<number | null>;
  alive(): boolean;
  /** Sends `signal` (SIGTERM by default) unless it has ended, and SIGKILL after `killAfterMs` if given; answers the exit code. */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<number | null>;
}

export function spawnProcess(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; keepChars?: number },
): SpawnedProcess {
  let output = '';
  const keep = options.keepChars ?? Infinity;
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > keep) output = output.slice(-keep);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    process: child,
    output: () => output,
    exited,
    alive,
    async stop(signal = 'SIGTERM', killAfterMs) {
      if (!alive()) return exited;
      child.kill(signal);
      const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Polls `${baseUrl}/api/health` until it answers 200; throws (after a SIGKILL) when the process ends first or the time is up. */
export async function waitUntilHealthy(spawned: SpawnedProcess, baseUrl: string, name = 'server', timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (spawned.process.exitCode !== null) throw new Error(`${name} exited early (${spawned.process.exitCode}):\n${spawned.output()}`);
    const up = await fetch(`${baseUrl}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return;
    if (Date.now() > deadline) {
      spawned.process.kill('SIGKILL');
      throw new Error(`${name} did not answer in time:\n${spawned.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
