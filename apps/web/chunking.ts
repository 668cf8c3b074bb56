/**
 * How the web build groups its chunks (issue 10: Lighthouse on /dashboard/main).
 *
 * By default the libraries of the lazily loaded screens are split into the pieces the screens have
 * in common: some forty small files for /dashboard/main (one per Mantine component, icon or helper),
 * which a phone on a slow link fetches six at a time (Lighthouse, same host and load: FCP 4.0 s,
 * LCP 4.4 s, score 56; with the two chunks below FCP 3.0 s, LCP 3.6 s, score 66). Library code goes
 * into two chunks instead:
 *   - `vendor-base`: what a visitor who is not signed in loads (index.html's entry, /login,
 *     /set-password) — the same code those pages loaded before, so /login stays within its script
 *     budget (docs/design.md, e2e/performance.spec.ts);
 *   - `vendor-app`: what only the signed-in screens load, fetched once and cached for all of them.
 * The earnings calendar's and the price charts' big libraries stay with their own screens, and every
 * screen's own code stays in its own chunk.
 *
 * Which library modules the signed-out pages use is known only after tree-shaking (Mantine and the
 * icons are imported through barrels that name every component), so the build asks a first,
 * in-memory build with the default chunks: the modules of the chunks those pages load.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InlineConfig, Rolldown } from 'vite';

const WEB = path.dirname(fileURLToPath(import.meta.url));
/** The screens a visitor who is not signed in loads, beside the entry chunk (index.html's script). */
const SIGNED_OUT_SCREENS = ['src/features/login/login-screen.tsx', 'src/features/set-password/set-password-screen.tsx'].map((file) => path.join(WEB, file));
/** The first screen after sign-in, with the shell around it. */
const DASHBOARD_MAIN_SCREENS = ['src/features/shell/dashboard-shell.tsx', 'src/features/dashboard/dashboard-screen.tsx'].map((file) => path.join(WEB, file));
/** Libraries big enough to stay with the one screen that uses them. */
const OWN_CHUNK = /[\\/]node_modules[\\/](@fullcalendar|preact|lightweight-charts|fancy-canvas)[\\/]/;
const LIBRARY_CODE = /[\\/]node_modules[\\/].*\.[cm]?js$/;

/** The modules of the chunks that the entry chunk and the given screens' chunks load statically. */
export function modulesLoadedBy(chunks: readonly Rolldown.OutputChunk[], screens: readonly string[]): Set<string> {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const modules = new Set<string>();
  const seen = new Set<string>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    chunk.moduleIds.forEach((id) => modules.add(id));
    chunk.imports.forEach((file) => visit(byFile.get(file)!));
  };
  const entries = chunks.filter((chunk) => chunk.isEntry);
  if (entries.length !== 1) throw new Error(`chunking: expected one entry chunk, found ${entries.length}`);
  entries.forEach(visit);
  for (const screen of screens) {
    const chunk = chunks.find((candidate) => candidate.facadeModuleId === screen);
    if (!chunk) throw new Error(`chunking: no chunk for ${path.relative(WEB, screen)}; are the paths in chunking.ts still right?`);
    visit(chunk);
  }
  return modules;
}

/** The modules the signed-out pages load, those /dashboard/main loads (with the entry's), and the lazily loaded screens'. */
export interface LibraryModules {
  signedOut: ReadonlySet<string>;
  dashboardMain: ReadonlySet<string>;
  /** The modules router.tsx imports lazily (each screen's own, and the shell): each keeps its chunk. */
  screens: ReadonlySet<string>;
}

/** The in-memory first build with the default chunks: the modules the signed-out pages and /dashboard/main load. */
export async function libraryModules(config: InlineConfig): Promise<LibraryModules> {
  const { build } = await import('vite');
  const output = await build({ ...config, configFile: false, logLevel: 'silent', build: { ...config.build, write: false, emptyOutDir: false, manifest: false, sourcemap: false } });
  const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
  const chunks = outputs.flatMap((result) => result.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk'));
  const screens = new Set(chunks.filter((chunk) => chunk.isDynamicEntry && chunk.facadeModuleId).map((chunk) => chunk.facadeModuleId!));
  return { signedOut: modulesLoadedBy(chunks, SIGNED_OUT_SCREENS), dashboardMain: modulesLoadedBy(chunks, DASHBOARD_MAIN_SCREENS), screens };
}

/**
 * The codeSplitting groups' name function: 'vendor-base' for the library code of the signed-out
 * pages (by default the entry chunk and a dozen small pieces that /login and every dashboard screen
 * each fetch), 'vendor-main' for what /dashboard/main adds to it, 'vendor-app' for library code
 * only the other signed-in screens load. No cycles between them: app code imports libraries, never
 * the other way round, and a library module's own imports are loaded wherever it is, so they sit in
 * its chunk or an earlier one (vendor-base, then vendor-main).
 *
 * 'app-main': the app's own helpers and the stylesheets /dashboard/main loads beyond the signed-out
 * pages' (the live-update client, the number formats, the favourites call, Mantine's component
 * stylesheets…), which the other signed-in screens share. By default each was a file of 1–2 KB, two
 * dozen for that route, fetched six at a time on a phone's slow link (issue 24); the screens' own
 * modules (`screens`) keep their chunks, which the router loads lazily.
 */
export function vendorChunkOf({ signedOut, dashboardMain, screens }: LibraryModules): (moduleId: string) => string | null {
  return (moduleId) => {
    if (OWN_CHUNK.test(moduleId)) return null;
    if (LIBRARY_CODE.test(moduleId)) {
      if (signedOut.has(moduleId)) return 'vendor-base';
      return dashboardMain.has(moduleId) ? 'vendor-main' : 'vendor-app';
    }
    return dashboardMain.has(moduleId) && !signedOut.has(moduleId) && !screens.has(moduleId) ? 'app-main' : null;
  };
}
