/**
 * Mantine's stylesheets are split by route (issue 10: one 245 KB stylesheet blocked every page).
 * main.tsx loads Mantine's global styles, the stylesheets of what the always-loaded code renders,
 * and every stylesheet another component's styles build on; each lazily loaded route imports the
 * stylesheets of the components its own code renders (Vite ships them with the route's chunk).
 * All of them are the `.layer.css` files: Mantine's rules sit in the `mantine` layer, below the
 * app's own CSS whatever order the chunks load in.
 *
 * This test reads the code and Mantine's modules, so a component added to a screen without its
 * stylesheet fails here with the line to add: which module each route loads (router.tsx's lazy
 * imports and their static imports), what each imports from @mantine/core, and which CSS modules
 * each Mantine component uses, including those of the components it renders inside.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.dirname(SRC);
const requireFromHere = createRequire(import.meta.url);
/** Where a package is installed (its entry, then up to its package.json). */
function packageRoot(name: string): string {
  let dir = path.dirname(requireFromHere.resolve(name));
  while (!(fs.existsSync(path.join(dir, 'package.json')) && JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name === name)) dir = path.dirname(dir);
  return dir;
}
const CORE = packageRoot('@mantine/core');
const NOTIFICATIONS = packageRoot('@mantine/notifications');
const GLOBAL_STYLES = ['baseline', 'default-css-variables', 'global'];
const sheetImport = (name: string) => (name === 'notifications' ? "import '@mantine/notifications/styles.layer.css';" : `import '@mantine/core/styles/${name}.layer.css';`);

// ---- Mantine: which stylesheets each exported component needs -------------------------------

const read = (file: string) => fs.readFileSync(file, 'utf8');

/** Exported name → its module file, from a package's esm/index.mjs ('' for one from another package). */
function exportsOf(packageDir: string): Map<string, string> {
  const esm = path.join(packageDir, 'esm');
  const files = new Map<string, string>();
  for (const match of read(path.join(esm, 'index.mjs')).matchAll(/import \{([^}]*)\} from "([^"]+)"/g)) {
    for (const binding of match[1]!.split(',')) {
      const [name, alias] = binding.trim().split(/\s+as\s+/);
      files.set((alias ?? name)!.trim(), match[2]!.startsWith('.') ? path.join(esm, match[2]!) : '');
    }
  }
  return files;
}
const coreExports = exportsOf(CORE);
const notificationsExports = exportsOf(NOTIFICATIONS);

const sheetsMemo = new Map<string, Set<string>>();
/** The @mantine/core stylesheets (by name, e.g. 'Button') a Mantine module uses, through everything it imports. */
function sheetsOfModule(file: string): Set<string> {
  const known = sheetsMemo.get(file);
  if (known) return known;
  const sheets = new Set<string>();
  sheetsMemo.set(file, sheets);
  const base = path.basename(file);
  if (base.endsWith('.module.mjs') && file.startsWith(CORE)) sheets.add(base.slice(0, -'.module.mjs'.length));
  const text = read(file);
  for (const match of text.matchAll(/from "(\.[^"]+)"/g)) for (const sheet of sheetsOfModule(path.resolve(path.dirname(file), match[1]!))) sheets.add(sheet);
  for (const match of text.matchAll(/import \{([^}]*)\} from "@mantine\/core"/g)) for (const sheet of sheetsOfNames(match[1]!.split(','), coreExports)) sheets.add(sheet);
  return sheets;
}

function sheetsOfNames(names: string[], exported: Map<string, string>): Set<string> {
  const sheets = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().split(/\s+as\s+/)[0]!.trim();
    if (!name || name.startsWith('type ')) continue;
    const file = exported.get(name);
    if (file === undefined) throw new Error(`${name} is not exported by Mantine`);
    if (!file) continue;
    for (const sheet of sheetsOfModule(file)) sheets.add(sheet);
  }
  return sheets;
}

/** Each stylesheet's CSS module (esm/components/Button/Button.module.mjs for 'Button'). */
const cssModules = new Map(
  fs
    .readdirSync(path.join(CORE, 'esm/components'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.module.mjs'))
    .map((file) => [path.basename(file, '.module.mjs'), path.join(CORE, 'esm/components', file)]),
);

/** The stylesheets a stylesheet's component builds on (Button on UnstyledButton and Loader). */
function dependenciesOf(sheet: string): Set<string> {
  const module = cssModules.get(sheet);
  if (!module) return new Set();
  const component = path.join(path.dirname(module), `${sheet}.mjs`);
  return new Set([...(fs.existsSync(component) ? sheetsOfModule(component) : [])].filter((other) => other !== sheet));
}

/** Mantine's own order of its stylesheets (that of styles.css): a component's dependencies come first. */
const fullSheet = read(path.join(CORE, 'styles.css'));
const mantineOrder = (sheet: string) => {
  if (sheet === 'notifications') return Number.MAX_SAFE_INTEGER; // @mantine/notifications' styles come after core's
  const text = read(path.join(CORE, 'styles', `${sheet}.css`)).trim().slice(0, 300);
  const at = fullSheet.indexOf(text);
  if (at < 0) throw new Error(`${sheet}.css is not part of styles.css`);
  return at;
};

// ---- The app: which modules each route loads, and what they import --------------------------

interface AppModule {
  file: string;
  staticImports: string[];
  lazyImports: string[];
  mantineSheets: Set<string>;
  /** Stylesheets imported, in order ('Button', 'global', … and 'notifications'). */
  importedSheets: string[];
  otherCss: string[];
}

function resolveModule(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  throw new Error(`cannot resolve ${specifier} from ${from}`);
}

const modules = new Map<string, AppModule>();
function appModule(file: string): AppModule {
  const known = modules.get(file);
  if (known) return known;
  const text = read(file);
  const module: AppModule = { file, staticImports: [], lazyImports: [], mantineSheets: new Set(), importedSheets: [], otherCss: [] };
  modules.set(file, module);
  for (const match of text.matchAll(/^import\s+(type\s+)?(?:([^;']*?)\s+from\s+)?'([^']+)';/gm)) {
    const [, typeOnly, bindings = '', specifier] = match as unknown as [string, string | undefined, string | undefined, string];
    if (typeOnly) continue;
    const named = /\{([\s\S]*)\}/.exec(bindings)?.[1]?.split(',') ?? [];
    const sheet = /^@mantine\/core\/styles\/(.+)\.layer\.css$/.exec(specifier)?.[1];
    if (sheet) module.importedSheets.push(sheet);
    else if (specifier === '@mantine/notifications/styles.layer.css') module.importedSheets.push('notifications');
    else if (specifier.endsWith('.css')) module.otherCss.push(specifier);
    else if (specifier === '@mantine/core') sheetsOfNames(named, coreExports).forEach((one) => module.mantineSheets.add(one));
    else if (specifier === '@mantine/notifications') {
      sheetsOfNames(named, notificationsExports).forEach((one) => module.mantineSheets.add(one));
      module.mantineSheets.add('notifications');
    } else if (specifier.startsWith('.')) module.staticImports.push(resolveModule(file, specifier));
  }
  for (const match of text.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)) module.lazyImports.push(resolveModule(file, match[1]!));
  return module;
}

/** A module and everything it imports statically: what loads with it. */
function closure(entry: string): AppModule[] {
  const seen = new Map<string, AppModule>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const module = appModule(file);
    seen.set(file, module);
    module.staticImports.forEach(visit);
  };
  visit(entry);
  return [...seen.values()];
}

const MAIN = path.join(SRC, 'main.tsx');
const mainModules = closure(MAIN);
const lazyEntries = [...new Set(mainModules.flatMap((module) => module.lazyImports))];
for (const entry of lazyEntries) for (const module of closure(entry)) module.lazyImports.forEach((file) => !lazyEntries.includes(file) && lazyEntries.push(file));

const needed = (group: AppModule[]) => new Set(group.flatMap((module) => [...module.mantineSheets]));
const imported = (group: AppModule[]) => new Set(group.flatMap((module) => module.importedSheets));
const mainSheets = imported(mainModules);
const relative = (file: string) => path.relative(WEB, file);
const byMantineOrder = (sheets: Iterable<string>) => [...sheets].sort((a, b) => mantineOrder(a) - mantineOrder(b));

describe("Mantine's stylesheets, split by route", () => {
  it('finds the routes: every lazily loaded module of router.tsx', () => {
    expect(lazyEntries.map(relative)).toEqual(
      expect.arrayContaining(['src/features/login/login-screen.tsx', 'src/features/shell/dashboard-shell.tsx', 'src/features/dashboard/dashboard-screen.tsx']),
    );
    expect(lazyEntries.length).toBeGreaterThanOrEqual(12);
  });

  it('main.tsx loads the global styles first, never the whole styles.css, and only layered sheets', () => {
    const main = appModule(MAIN);
    expect(main.importedSheets.slice(0, 3)).toEqual(GLOBAL_STYLES);
    for (const module of modules.values()) {
      const text = read(module.file);
      expect(text, relative(module.file)).not.toMatch(/'@mantine\/core\/styles(\.layer)?\.css'|'@mantine\/core\/styles\/[A-Za-z-]+\.css'|'@mantine\/notifications\/styles\.css'/);
    }
  });

  it('main.tsx loads what the always-loaded code renders, and every stylesheet another one builds on, in Mantine’s order', () => {
    const used = new Set([...lazyEntries.flatMap((entry) => closure(entry)), ...mainModules].flatMap((module) => [...module.mantineSheets]));
    const base = new Set([...needed(mainModules), ...[...used].flatMap((sheet) => [...dependenciesOf(sheet)])]);
    const missing = byMantineOrder([...base].filter((sheet) => !mainSheets.has(sheet)));
    expect(missing.map(sheetImport), 'missing in src/main.tsx').toEqual([]);
    const mainOrder = appModule(MAIN).importedSheets.filter((sheet) => !GLOBAL_STYLES.includes(sheet) && sheet !== 'notifications');
    expect(mainOrder, 'main.tsx imports Mantine stylesheets in the order of styles.css').toEqual(byMantineOrder(mainOrder));
  });

  it('each route imports the stylesheets of what it renders, and they build only on main.tsx’s', () => {
    const problems: string[] = [];
    for (const entry of lazyEntries) {
      const group = closure(entry);
      const have = new Set([...mainSheets, ...imported(group)]);
      const missing = byMantineOrder([...needed(group)].filter((sheet) => !have.has(sheet)));
      if (missing.length > 0) problems.push(`${relative(entry)} needs:\n${missing.map(sheetImport).join('\n')}`);
      for (const module of group) {
        for (const sheet of module.importedSheets) {
          const loose = [...dependenciesOf(sheet)].filter((dependency) => !mainSheets.has(dependency));
          if (loose.length > 0) problems.push(`${relative(module.file)}: ${sheet} builds on ${loose.join(', ')}, which main.tsx must load`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('the analysis sees what it should (a screen that renders a Button needs Button and UnstyledButton)', () => {
    expect([...dependenciesOf('Button')].sort()).toEqual(['Loader', 'UnstyledButton']);
    const login = closure(path.join(SRC, 'features/login/login-screen.tsx'));
    expect([...needed(login)]).toEqual(expect.arrayContaining(['Button', 'UnstyledButton', 'Input', 'PasswordInput', 'Anchor']));
  });
});
