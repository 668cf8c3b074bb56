/**
 * The web build's chunking (chunking.ts) and its per-route pages (route-preloads.ts), on router.tsx
 * as it is and on made-up chunk graphs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Rolldown } from 'vite';
import { modulesLoadedBy, vendorChunkOf } from '../chunking';
import { routeFiles, routeModules } from '../route-preloads';

const SRC = path.dirname(fileURLToPath(import.meta.url));
const routerSource = fs.readFileSync(path.join(SRC, 'router.tsx'), 'utf8');

describe('route pages (route-preloads.ts)', () => {
  it("finds every route of router.tsx and the modules it loads: the dashboard's screens with the shell", () => {
    const routes = routeModules(routerSource);
    expect(routes.get('login')).toEqual(['./features/login/login-screen']);
    expect(routes.get('set-password')).toEqual(['./features/set-password/set-password-screen']);
    expect(routes.get('dashboard/main')).toEqual(['./features/shell/dashboard-shell', './features/dashboard/dashboard-screen']);
    expect(routes.get('dashboard/options2')).toEqual(['./features/shell/dashboard-shell', './features/option-trades/option-trades-screen']);
    // One route per lazily loaded module but the shell's.
    expect(routes.size).toBe([...routerSource.matchAll(/import\('\.\/features\//g)].length - 1);
    for (const modules of routes.values()) for (const module of modules) expect(fs.existsSync(path.join(SRC, `${module}.tsx`)), module).toBe(true);
  });

  it('refuses a router.tsx whose lazy imports it cannot all place, rather than leaving a route out', () => {
    const extra = routerSource.replace("{ path: '*', element: <Navigate to=\"/login\" replace /> },\n    ],", "{ path: 'help', lazy: () => import('./features/support/support-screen') },\n    ],");
    expect(extra).not.toBe(routerSource);
    // Every route found, plus the unplaced one: one more lazy screen than routes (counts follow router.tsx as screens are added).
    const found = routeModules(routerSource).size;
    expect(() => routeModules(extra)).toThrow(`found ${found} routes for ${found + 1} lazily loaded screens`);
    expect(() => routeModules(routerSource.replace('dashboard-shell', 'app-shell'))).toThrow(/dashboard-shell/);
  });

  it("links a route's chunks and their imports once each, in order, leaving out what index.html links", () => {
    const chunk = (fileName: string, imports: string[], css: string[] = []) => ({ fileName, imports, css });
    const chunks = new Map(
      [
        chunk('assets/shell.js', ['assets/vendor-base.js', 'assets/vendor-app.js'], ['assets/shell.css']),
        chunk('assets/main.js', ['assets/vendor-app.js', 'assets/format.js'], ['assets/main.css', 'assets/shell.css']),
        chunk('assets/vendor-app.js', ['assets/vendor-base.js']),
        chunk('assets/vendor-base.js', []),
        chunk('assets/format.js', []),
      ].map((info) => [info.fileName, info]),
    );
    const files = routeFiles([chunks.get('assets/shell.js')!, chunks.get('assets/main.js')!], chunks, new Set(['assets/vendor-base.js']));
    expect(files).toEqual({ scripts: ['assets/shell.js', 'assets/vendor-app.js', 'assets/main.js', 'assets/format.js'], styles: ['assets/shell.css', 'assets/main.css'] });
  });
});

describe('vendor chunks (chunking.ts)', () => {
  const out = (fileName: string, moduleIds: string[], imports: string[] = [], extra: Partial<Rolldown.OutputChunk> = {}) =>
    ({ type: 'chunk', fileName, moduleIds, imports, isEntry: false, facadeModuleId: null, ...extra }) as unknown as Rolldown.OutputChunk;
  const web = path.dirname(SRC);
  const login = path.join(web, 'src/features/login/login-screen.tsx');
  const setPassword = path.join(web, 'src/features/set-password/set-password-screen.tsx');

  it('collects the modules of the chunks the entry, /login and /set-password load, and no others', () => {
    const chunks = [
      out('index.js', ['/w/src/main.tsx', '/nm/react/index.js'], ['base.js'], { isEntry: true }),
      out('base.js', ['/nm/@mantine/core/Box.mjs']),
      out('login.js', [login], ['input.js'], { facadeModuleId: login }),
      out('input.js', ['/nm/@mantine/core/Input.mjs']),
      out('set-password.js', [setPassword], ['base.js'], { facadeModuleId: setPassword }),
      out('dashboard.js', ['/w/src/features/dashboard/x.tsx'], ['accordion.js']),
      out('accordion.js', ['/nm/@mantine/core/Accordion.mjs']),
    ];
    expect([...modulesLoadedBy(chunks, [login, setPassword])].sort()).toEqual(
      ['/nm/@mantine/core/Box.mjs', '/nm/@mantine/core/Input.mjs', '/nm/react/index.js', '/w/src/main.tsx', login, setPassword].sort(),
    );
    expect(() => modulesLoadedBy(chunks, [path.join(web, 'src/features/gone.tsx')])).toThrow(/no chunk for src\/features\/gone.tsx/);
  });

  it('puts library code in vendor-base (signed-out pages load it), vendor-main (/dashboard/main adds it) or vendor-app, and leaves app code and the big libraries alone', () => {
    const signedOut = new Set(['/w/node_modules/react/index.js', '/w/node_modules/@mantine/core/esm/Box.mjs']);
    const dashboardMain = new Set([...signedOut, '/w/node_modules/@mantine/core/esm/Accordion.mjs']);
    const name = vendorChunkOf({ signedOut, dashboardMain, screens: new Set() });
    expect(name('/w/node_modules/react/index.js')).toBe('vendor-base');
    expect(name('/w/node_modules/@mantine/core/esm/Box.mjs')).toBe('vendor-base');
    expect(name('/w/node_modules/@mantine/core/esm/Accordion.mjs')).toBe('vendor-main');
    expect(name('/w/node_modules/@mantine/core/esm/Combobox.mjs')).toBe('vendor-app');
    expect(name('/w/node_modules/@mantine/core/styles/Accordion.layer.css')).toBeNull(); // not on /dashboard/main
    expect(name('/w/node_modules/@fullcalendar/core/index.js')).toBeNull();
    expect(name('/w/node_modules/lightweight-charts/dist/lightweight-charts.production.mjs')).toBeNull();
    expect(name('/w/apps/web/src/components/format.ts')).toBeNull();
  });

  it("puts /dashboard/main's own helpers and stylesheets beyond the signed-out pages' in app-main, and leaves the screens' modules, the signed-out pages' and the other screens' alone", () => {
    const shell = '/w/apps/web/src/features/shell/dashboard-shell.tsx';
    const screen = '/w/apps/web/src/features/dashboard/dashboard-screen.tsx';
    const signedOut = new Set(['/w/apps/web/src/main.tsx', '/w/apps/web/src/lib/client.ts', '/w/node_modules/@mantine/core/styles/Button.layer.css']);
    const dashboardMain = new Set([...signedOut, shell, screen, '/w/apps/web/src/components/format.ts', '/w/node_modules/@mantine/core/styles/Badge.layer.css', '/w/apps/web/src/features/dashboard/dashboard.css']);
    const name = vendorChunkOf({ signedOut, dashboardMain, screens: new Set([shell, screen]) });
    expect(name('/w/apps/web/src/components/format.ts')).toBe('app-main');
    expect(name('/w/node_modules/@mantine/core/styles/Badge.layer.css')).toBe('app-main');
    expect(name('/w/apps/web/src/features/dashboard/dashboard.css')).toBe('app-main');
    expect(name(shell)).toBeNull();
    expect(name(screen)).toBeNull();
    expect(name('/w/apps/web/src/lib/client.ts')).toBeNull();
    expect(name('/w/node_modules/@mantine/core/styles/Button.layer.css')).toBeNull();
    expect(name('/w/apps/web/src/features/crypto/crypto-screen.tsx')).toBeNull();
  });
});
