// `npm run check:structure` (part of `npm test`): the codebase's shape (issue 25), checked on the
// sources of packages/core, apps/server and apps/web (tests and generated files aside):
//   1. no import cycle (static, type-only and dynamic imports alike: a cycle is a cycle to a reader);
//   2. no source file over 400 lines;
//   3. no web feature importing another feature (shared parts live in components/ or lib/);
//   4. no branch on one engine (`engine.id === 'crypto'`, `event.engine !== 'drop'`) outside that engine's
//      own code (core trades/engines/<name>/, the server's engine adapters);
//   5. no code comment citing a Markdown document that is not in this repository;
//   6. one name per feature: each web feature folder is a screen's code name (FEATURE_OF_SCREEN in
//      packages/core/src/menu.ts) or one of the few parts that are no screen of the menu (sign-in,
//      an invitation's and sign-up's screens, the shell), and the router loads each screen from its own feature's folder;
//   7. no route without a declaration: a server feature registers its API routes with route()
//      (apps/server/src/lib/endpoint.ts) for an endpoint of packages/core/src/endpoints, never with
//      app.get/app.post/….route() itself (the few routes outside /api aside: NON_API_ROUTE_FILES);
//   8. no declaration without a route: every declared operationId is named by a route() call in
//      apps/server/src (`route(app, authEndpoints.login, …)`), or by an engine adapter's list
//      (`endpoint: tradesEndpoints.getSwingTradeEntries`, which trades.routes.ts registers);
//   9. the server's lower layers (lib/, providers/, db/) import no feature.
// Checks 2 to 5 and 7 hold a baseline (scripts/structure-baseline.json) of what the code had when the check
// was written: a violation it does not list fails, a listed file may not get worse (more lines, more
// comparisons, more missing documents), and an entry that no longer occurs fails too until it is
// removed, so the baseline only ever shrinks. Checks 1, 6, 8 and 9 have none: nothing of theirs is left.
// `--update-baseline` rewrites the baseline to the violations of now (review its diff: it may only shrink).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// --root <dir>: another tree laid out as this one (the script's own tests run it on small fixtures).
const rootArg = process.argv.indexOf('--root');
const ROOT = rootArg > 0 ? path.resolve(process.argv[rootArg + 1]) : path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SOURCE_ROOTS = ['packages/core/src', 'apps/server/src', 'apps/web/src'];
const BASELINE_FILE = path.join(ROOT, 'scripts/structure-baseline.json');
const MAX_LINES = 400;
const ALIASES = { '@signalboard/core': 'packages/core/src/index.ts' };
/**
 * Where branching on one engine is the point: an engine's own code (core `trades/engines/<name>/`,
 * the server's `features/trades/engines/`, a `*.adapter.ts`). Everywhere else shared code asks the
 * engine's definition or adapter.
 */
const ENGINE_ADAPTER = /(^|\/)engines\/|\.adapter\.ts$/;
const ENGINE_IDS = '(?:layered|swing|options|drop|crypto)';
const ENGINE_SIDE = '(?:\\bengine(?:Id)?|\\bengine\\.id|\\.engine)';
/**
 * A branch on one engine: an engine (`engine`, `engineId`, `engine.id`, `event.engine`) compared with
 * one engine's id. Comparing two engines (`event.engine !== engine.id`, a log filtered to its own
 * engine) is no engine knowledge and does not count.
 */
const ENGINE_BRANCH = new RegExp(`${ENGINE_SIDE}\\s*[!=]==\\s*(['"])${ENGINE_IDS}\\1|(['"])${ENGINE_IDS}\\2\\s*[!=]==\\s*(?:\\w+\\.)?engine(?:Id|\\.id)?\\b`, 'g');

const isTest = (file) => /\.(test|spec)\.tsx?$/.test(file) || file.includes('/test/') || file.includes('/__fixtures__/');
const isGenerated = (file) => file.includes('/generated/') || /\.gen\.tsx?$/.test(file);

function walk(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');
const files = SOURCE_ROOTS.filter((root) => fs.existsSync(path.join(ROOT, root)))
  .flatMap((root) => walk(path.join(ROOT, root))).map(rel).filter((file) => !isTest(file) && !isGenerated(file)).sort();
const known = new Set(files);
const text = new Map(files.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));

/** The repository file a specifier names, or null (a package, or a file outside the checked sources). */
function resolve(from, specifier) {
  let base;
  if (ALIASES[specifier]) return ALIASES[specifier];
  if (specifier.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  else return null;
  const stem = base.replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`, `${stem}/index.tsx`]) if (known.has(candidate)) return candidate;
  return null;
}

// 1. Import cycles: Tarjan's strongly connected components over the import graph.
const graph = new Map(
  files.map((file) => {
    const info = ts.preProcessFile(text.get(file), true, true);
    const targets = new Set(info.importedFiles.map((imported) => resolve(file, imported.fileName)).filter(Boolean));
    return [file, [...targets].sort()];
  }),
);

function cycles() {
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (start) => {
    // Iterative (deep import chains would overflow a recursive walk's stack on a big tree).
    const frames = [{ node: start, next: 0 }];
    order.set(start, index);
    low.set(start, index);
    index += 1;
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames.at(-1);
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const target = edges[frame.next];
        frame.next += 1;
        if (!order.has(target)) {
          order.set(target, index);
          low.set(target, index);
          index += 1;
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), order.get(target)));
        }
        continue;
      }
      frames.pop();
      if (frames.length > 0) low.set(frames.at(-1).node, Math.min(low.get(frames.at(-1).node), low.get(frame.node)));
      if (low.get(frame.node) === order.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) found.push(component.sort());
      }
    }
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return found;
}

/** One path around a component, for the message: a → b → … → a. */
function loopIn(component) {
  const members = new Set(component);
  const start = component[0];
  const seen = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const loop = [start];
        for (let at = node; at !== start; at = seen.get(at)) loop.splice(1, 0, at);
        return [...loop, start].join(' → ');
      }
      if (!seen.has(target)) {
        seen.set(target, node);
        queue.push(target);
      }
    }
  }
  return component.join(', ');
}

// 2–5: violations of now, per file.
const lineCount = (source) => source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
const longFiles = Object.fromEntries(files.map((file) => [file, lineCount(text.get(file))]).filter(([, lines]) => lines > MAX_LINES));

const webFeature = (file) => file.match(/^apps\/web\/src\/features\/([^/]+)\//)?.[1];
const featureImports = {};
for (const file of files) {
  const own = webFeature(file);
  if (!own) continue;
  const others = [...new Set(graph.get(file).filter((target) => webFeature(target) && webFeature(target) !== own))];
  if (others.length > 0) featureImports[file] = others;
}

const engineIdComparisons = {};
for (const file of files) {
  if (ENGINE_ADAPTER.test(file)) continue;
  const n = (text.get(file).match(ENGINE_BRANCH) ?? []).length;
  if (n > 0) engineIdComparisons[file] = n;
}

/** Every Markdown file of the repository, by path and by name. */
const repoDocs = (() => {
  const out = [];
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'dist', '.git', '.e2e-artifacts', 'data'].includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name.endsWith('.md')) out.push(rel(full));
    }
  };
  visit(ROOT);
  return out;
})();
const docExists = (file, cited) => {
  if (cited.startsWith('../shared/') || cited.includes('shared/reference/')) return false;
  if (cited.includes('/')) {
    const fromFile = rel(path.resolve(ROOT, path.dirname(file), cited));
    const fromRoot = path.posix.normalize(cited.replace(/^\.\//, ''));
    return repoDocs.includes(fromFile) || repoDocs.includes(fromRoot);
  }
  // A bare name: beside the file, at the root or in docs/ (a name alone elsewhere is ambiguous: cite the path).
  return [rel(path.resolve(ROOT, path.dirname(file), cited)), cited, `docs/${cited}`].some((candidate) => repoDocs.includes(candidate));
};
const missingDocs = {};
for (const file of files) {
  const cited = new Set();
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard, text.get(file));
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token !== ts.SyntaxKind.SingleLineCommentTrivia && token !== ts.SyntaxKind.MultiLineCommentTrivia) continue;
    for (const match of scanner.getTokenText().matchAll(/(?:[\w.-]+\/)*[\w.-]+\.md\b/g)) cited.add(match[0]);
  }
  const missing = [...cited].filter((doc) => !docExists(file, doc)).sort();
  if (missing.length > 0) missingDocs[file] = missing;
}

/** Web features that are no screen of the dashboard's menu. */
const NON_SCREEN_FEATURES = new Set(['login', 'set-password', 'invitation', 'shell', 'not-available']);
const featureNameProblems = [];
const menuFile = path.join(ROOT, 'packages/core/src/menu.ts');
if (fs.existsSync(menuFile)) {
  const table = fs.readFileSync(menuFile, 'utf8').match(/export const FEATURE_OF_SCREEN = \{([^}]*)\}/);
  if (!table) featureNameProblems.push('packages/core/src/menu.ts has no FEATURE_OF_SCREEN table');
  const featureOf = new Map([...(table?.[1] ?? '').matchAll(/(\w+): '([a-z-]+)'/g)].map((m) => [m[1], m[2]]));
  const names = new Set(featureOf.values());
  const featuresDir = path.join(ROOT, 'apps/web/src/features');
  const folders = fs.existsSync(featuresDir) ? fs.readdirSync(featuresDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name) : [];
  for (const folder of folders) {
    if (!names.has(folder) && !NON_SCREEN_FEATURES.has(folder)) featureNameProblems.push(`apps/web/src/features/${folder}/ is no feature's code name (FEATURE_OF_SCREEN in packages/core/src/menu.ts)`);
  }
  const routerFile = 'apps/web/src/router.tsx';
  for (const [, key, folder] of (text.get(routerFile) ?? '').matchAll(/^\s*(\w+): \(\) => import\('\.\/features\/([^/']+)\//gm)) {
    if (featureOf.has(key) && featureOf.get(key) !== folder) featureNameProblems.push(`${routerFile} loads the ${key} screen from features/${folder}/, not its feature's folder features/${featureOf.get(key)}/`);
  }
}

// 7. Routes registered without a declaration: calls of a Fastify instance's route methods in the
// server's features. A call counts when its receiver is `app` (the features' name for their
// instance), its first argument is a path ('/…'), or it is `.route({ … })`.
/** Features whose routes are outside /api, no API call (the metrics scrape, robots.txt, the simulated market's article pages). */
const NON_API_ROUTE_FILES = new Set(['apps/server/src/features/metrics/metrics.routes.ts', 'apps/server/src/features/robots/robots.routes.ts', 'apps/server/src/features/market/simulated-news.routes.ts']);
const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all', 'route']);
function undeclaredRouteCalls(file) {
  const source = ts.createSourceFile(file, text.get(file), ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  let n = 0;
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ROUTE_METHODS.has(node.expression.name.text)) {
      const receiver = node.expression.expression;
      const first = node.arguments[0];
      const pathArgument = first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) || ts.isTemplateExpression(first)) && first.getText(source).slice(1).startsWith('/');
      const routeObject = node.expression.name.text === 'route' && first && ts.isObjectLiteralExpression(first);
      if ((ts.isIdentifier(receiver) && receiver.text === 'app') || pathArgument || routeObject) n += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return n;
}
const undeclaredRoutes = {};
for (const file of files) {
  if (!file.startsWith('apps/server/src/features/') || NON_API_ROUTE_FILES.has(file)) continue;
  const n = undeclaredRouteCalls(file);
  if (n > 0) undeclaredRoutes[file] = n;
}

// 8. Declarations without a route.
const declared = files
  .filter((file) => file.startsWith('packages/core/src/endpoints/'))
  .flatMap((file) => [...text.get(file).matchAll(/\boperationId:\s*['"](\w+)['"]/g)].map((m) => ({ file, id: m[1] })));
const routed = new Set(
  files
    .filter((file) => file.startsWith('apps/server/src/'))
    .flatMap((file) => [...text.get(file).matchAll(/\broute\(\s*\w+\s*,\s*\w+\.(\w+)\s*[,)]|\bendpoint:\s*\w+\.(\w+)/g)].map((m) => m[1] ?? m[2])),
);
const unroutedDeclarations = declared.filter(({ id }) => !routed.has(id)).map(({ file, id }) => `${file}: ${id} is declared but no route( call in apps/server/src registers it (a declaration without a route)`);

// The server's layers below the features (lib/, providers/, db/) serve every feature and import none.
const LOWER_LAYER = /^apps\/server\/src\/(lib|providers|db)\//;
const layerProblems = files
  .filter((file) => LOWER_LAYER.test(file))
  .flatMap((file) => graph.get(file).filter((target) => target.startsWith('apps/server/src/features/')).map((target) => `${file} imports a feature: ${target} (lib/, providers/ and db/ serve every feature and import none; move the shared part down)`));

const now = { longFiles, featureImports, engineIdComparisons, missingDocs, undeclaredRoutes };

if (process.argv.includes('--update-baseline')) {
  fs.writeFileSync(BASELINE_FILE, `${JSON.stringify(now, null, 2)}\n`);
  console.log(`check:structure: baseline written to ${rel(BASELINE_FILE)}`);
  process.exit(0);
}

const baseline = fs.existsSync(BASELINE_FILE) ? JSON.parse(fs.readFileSync(BASELINE_FILE, 'utf8')) : {};
const problems = [];
for (const component of cycles()) problems.push(`import cycle: ${loopIn(component)}`);
problems.push(...featureNameProblems);
problems.push(...unroutedDeclarations);
problems.push(...layerProblems);

/** Compares one check's violations with its baseline; `worse(now, then)` says a listed file got worse. */
function ratchet(key, describe, worse) {
  const then = baseline[key] ?? {};
  for (const [file, value] of Object.entries(now[key])) {
    if (!(file in then)) problems.push(`${describe(file, value)}`);
    else if (worse(value, then[file])) problems.push(`${describe(file, value)} (the baseline allows ${JSON.stringify(then[file])}; it may not get worse)`);
  }
  for (const file of Object.keys(then)) {
    if (!(file in now[key])) problems.push(`${key}: ${file} is fixed: remove it from ${rel(BASELINE_FILE)} (npm run check:structure -- --update-baseline)`);
  }
}
const grew = (value, allowed) => value > allowed;
const added = (value, allowed) => value.some((entry) => !allowed.includes(entry));
ratchet('longFiles', (file, lines) => `${file}: ${lines} lines (at most ${MAX_LINES}: split it by responsibility)`, grew);
ratchet('featureImports', (file, targets) => `${file} imports another web feature: ${targets.join(', ')} (move the shared part to components/ or lib/)`, added);
ratchet('engineIdComparisons', (file, n) => `${file}: ${n} × a branch on one engine outside its own code`, grew);
ratchet('missingDocs', (file, docs) => `${file} cites ${docs.join(', ')}, not in this repository (cite docs/ instead)`, added);
ratchet('undeclaredRoutes', (file, n) => `${file}: ${n} × a route registered without a declaration (declare it in packages/core/src/endpoints, register it with route() from lib/endpoint.ts)`, grew);

const counted = (key) => Object.keys(now[key]).length;
if (problems.length > 0) {
  for (const problem of problems) console.error(`check:structure: ${problem}`);
  process.exit(1);
}
console.log(
  `check:structure: ${files.length} source files, no import cycle; baseline still to clear: ${counted('longFiles')} files over ${MAX_LINES} lines, ` +
    `${counted('featureImports')} web files importing another feature, ${counted('engineIdComparisons')} files branching on one engine, ${counted('missingDocs')} files citing documents outside the repository, ` +
    `${counted('undeclaredRoutes')} server files registering routes without a declaration; ${declared.length} endpoints declared, each with a route`,
);
