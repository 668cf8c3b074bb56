/**
 * A Vite build plugin: one HTML page per app route (`dist/routes/<route>.html`), the built index.html
 * with the route's own chunks and stylesheets linked in its head (`modulepreload` and `stylesheet`).
 *
 * Why: each screen is a lazily loaded chunk (router.tsx), so without these links the browser learns
 * which files /dashboard/main needs only after index.js has downloaded and run, then again after the
 * shell's chunk has — three round trips in a row before the first API call, and Vite's loader adding
 * some seventy <link> tags from script while the first render waits. With them, everything the route
 * needs downloads in parallel with index.js (issue 10: Lighthouse on /dashboard/main).
 *
 * The server sends `routes/login.html` for /login, `routes/dashboard/main.html` for /dashboard/main,
 * and index.html for any other path (apps/server/src/app.ts, `routePage`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The app's routes and the modules each loads lazily, read from router.tsx's `import()` calls. */
export function routeModules(routerSource: string): Map<string, string[]> {
  const shell = /import\('(\.\/features\/shell\/dashboard-shell)'\)/.exec(routerSource)?.[1];
  if (!shell) throw new Error("route-preloads: router.tsx no longer imports './features/shell/dashboard-shell'");
  const routes = new Map<string, string[]>();
  // The dashboard's screens, in BUILT_SCREENS: `  main: () => import('./features/dashboard/dashboard-screen'),`
  const screens = /const BUILT_SCREENS[^=]*= \{([\s\S]*?)\n\};/.exec(routerSource)?.[1];
  if (!screens) throw new Error('route-preloads: no BUILT_SCREENS table in router.tsx');
  for (const match of screens.matchAll(/^\s+([a-z0-9]+): \(\) => import\('(\.\/features\/[^']+)'\),?$/gm)) {
    routes.set(`dashboard/${match[1]}`, [shell, match[2]!]);
  }
  // Pages outside the dashboard: `{ path: 'login', handle: …, lazy: () => import('./features/login/login-screen') }`
  for (const match of routerSource.matchAll(/path: '([a-z0-9-]+)',\s*handle: [^\n]*?\n?[^\n]*?lazy: \(\) => import\('(\.\/features\/[^']+)'\)/g)) {
    routes.set(match[1]!, [match[2]!]);
  }
  const lazyImports = [...routerSource.matchAll(/import\('\.\/features\/[^']+'\)/g)].length;
  // Every lazy import is a route's module, or the shell's (which the dashboard routes share).
  if (routes.size + 1 !== lazyImports) {
    throw new Error(`route-preloads: found ${routes.size} routes for ${lazyImports - 1} lazily loaded screens in router.tsx; update routeModules() to its new form`);
  }
  return routes;
}

interface ChunkInfo {
  fileName: string;
  imports: string[];
  css: string[];
}

/** The files a route needs beyond what index.html already links: its chunks (with their static imports) and their CSS. */
export function routeFiles(entries: ChunkInfo[], chunks: Map<string, ChunkInfo>, alreadyLinked: Set<string>): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  const visit = (chunk: ChunkInfo) => {
    if (scripts.includes(chunk.fileName) || alreadyLinked.has(chunk.fileName)) return;
    scripts.push(chunk.fileName);
    for (const file of chunk.imports) visit(chunks.get(file)!);
    for (const sheet of chunk.css) if (!styles.includes(sheet) && !alreadyLinked.has(sheet)) styles.push(sheet);
  };
  for (const entry of entries) visit(entry);
  return { scripts, styles };
}

export function routePreloads(): Plugin {
  return {
    name: 'signalboard-route-preloads',
    apply: 'build',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset') throw new Error('route-preloads: no index.html in the bundle');
        const indexHtml = String(html.source);
        const base = '/';
        const chunks = new Map<string, ChunkInfo & { facade: string | null }>();
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk') continue;
          chunks.set(output.fileName, {
            fileName: output.fileName,
            imports: output.imports,
            css: [...(output.viteMetadata?.importedCss ?? [])],
            facade: output.facadeModuleId,
          });
        }
        const alreadyLinked = new Set([...indexHtml.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((match) => match[1]!));
        const routerFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'src/router.tsx');
        for (const [route, modules] of routeModules(fs.readFileSync(routerFile, 'utf8'))) {
          const entries = modules.map((module) => {
            const file = path.resolve(path.dirname(routerFile), `${module}.tsx`);
            const chunk = [...chunks.values()].find((candidate) => candidate.facade === file);
            if (!chunk) throw new Error(`route-preloads: no chunk for ${module} (route ${route})`);
            return chunk;
          });
          const { scripts, styles } = routeFiles(entries, chunks, alreadyLinked);
          const links = [
            ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`),
            // Fetched early, applied when the route's chunk loads (Vite's loader adds the stylesheet and
            // waits for it): as `stylesheet` links they would hold the first paint back for all of them.
            ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="${base}${file}">`),
          ];
          this.emitFile({ type: 'asset', fileName: `routes/${route}.html`, source: indexHtml.replace('</head>', `  ${links.join('\n    ')}\n  </head>`) });
        }
      },
    },
  };
}
