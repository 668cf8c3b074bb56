/**
 * A Vite build plugin: every text asset of the build (JavaScript, CSS, HTML, SVG, JSON, text) is
 * written beside itself compressed, as `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level
 * 9), so the server sends the smallest encoding the browser accepts without compressing on each
 * request (@fastify/static `preCompressed`, apps/server/src/app.ts). Source maps are left alone: only
 * the developer tools load them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const PRECOMPRESSED_EXTENSIONS = ['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest'];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes `.br` and `.gz` beside each compressible file under `dir`; answers the files compressed. */
export async function precompressDirectory(dir: string): Promise<string[]> {
  const files = (await filesUnder(dir)).filter((file) => PRECOMPRESSED_EXTENSIONS.includes(path.extname(file)) && !path.relative(dir, file).startsWith('.vite'));
  await Promise.all(
    files.map(async (file) => {
      const content = await fs.readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: {
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
    }),
  );
  return files;
}

export function precompress(): Plugin {
  let outDir = 'dist';
  let logger: ResolvedConfig['logger'] | undefined;
  return {
    name: 'signalboard-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle() {
      const files = await precompressDirectory(outDir);
      logger?.info(`pre-compressed ${files.length} files (brotli and gzip)`);
    },
  };
}
