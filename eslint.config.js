import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Colours come from the theme's tokens (theme.ts), which pass WCAG AA in both schemes; a shade
// ('green.9', --mantine-color-red-9) or a literal colour may not.
const WEB_COLOUR_SYNTAX = [
  {
    selector: 'JSXAttribute[name.name=/^(c|color|bg|bd)$/] Literal[value=/^[a-z]+\\.\\d$|^#|^rgba?\\(|^hsla?\\(/]',
    message: 'Name a theme colour (TONE, changeColor, "dimmed"), not a shade or a literal colour: only the tokens are checked for contrast.',
  },
  {
    selector: ':matches(Literal[value=/--mantine-color-[a-z]+-\\d\\b/], TemplateElement[value.raw=/--mantine-color-[a-z]+-\\d\\b/])',
    message: 'Use a colour token (--mantine-color-{name}-text, -filled, -light-color, --mantine-color-dimmed), not a numbered shade.',
  },
];
/** The web app's calls name their endpoint's declaration (apiCall in lib/client.ts), never a path of their own. */
const WEB_API_CALL_MESSAGE = 'Call the server through the endpoint\'s declaration: apiCall(xEndpoints.y, input) or, for a stream or a download, apiCallResponse (lib/client.ts).';

export default tseslint.config(
  // bench/.<name>.bench.ts.mjs: the bench runner's bundles while it runs.
  { ignores: ['**/dist/**', '**/node_modules/**', '.e2e-artifacts/**', 'data/**', 'coverage/**', 'bench/.*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // core is pure: no Node, DOM, network, database or framework (DESIGN.md, STYLE.md).
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            // A regex, not a gitignore-style group: 'crypto' as a group would also refuse our own trades/crypto folder.
            { regex: '^(node:.*|fs|path|os|crypto|http|child_process)(/.*)?$', message: 'packages/core must stay pure (no Node APIs).' },
            { group: ['react', 'react-*', '@mantine/*', 'fastify', '@fastify/*', 'drizzle-orm*', 'pg'], message: 'packages/core must not depend on a framework or the database.' },
            { group: ['@signalboard/server', '@signalboard/web', '../../apps/*'], message: 'packages/core must not import upward.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'fetch', 'process', 'Buffer', 'localStorage'],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@signalboard/server', '../../../apps/server/*'], message: 'The web app talks to the server over HTTP only.' },
            {
              group: ['**/lib/client', './client', '../client'],
              importNames: ['apiRequestUnchecked', 'apiRequest', 'apiFetch'],
              message: `${WEB_API_CALL_MESSAGE} Only the signed-out pages' calls (lib/api/auth.ts) name a path and skip the schema, to keep zod out of their chunks.`,
            },
          ],
        },
      ],
      'no-restricted-syntax': ['error', ...WEB_COLOUR_SYNTAX],
    },
  },
  {
    // The app's own code (not its tests, which name the paths they expect): no request but through
    // lib/client.ts, and no '/api/…' path written by hand (a request, a link, a URL).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/client.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      'no-restricted-globals': ['error', ...['fetch', 'XMLHttpRequest', 'EventSource'].map((name) => ({ name, message: WEB_API_CALL_MESSAGE }))],
      'no-restricted-syntax': [
        'error',
        ...WEB_COLOUR_SYNTAX,
        { selector: ':matches(Literal[value=/^\\/?api\\//], TemplateElement[value.raw=/^\\/?api\\//])', message: WEB_API_CALL_MESSAGE },
      ],
    },
  },
  {
    // The signed-out pages' calls (their chunks stay free of the schema library; lib/client.ts).
    files: ['apps/web/src/lib/api/auth.ts', 'apps/web/src/lib/client.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@signalboard/server', '../../../apps/server/*'], message: 'The web app talks to the server over HTTP only.' }] }] },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@signalboard/web', 'react', 'react-dom'], message: 'The server does not import the web app.' }] },
      ],
    },
  },
  {
    files: ['apps/server/test/**/*.ts', 'e2e/**/*.ts', '**/*.test.{ts,tsx}', '**/*.spec.ts', 'vitest.config.ts', 'apps/**/vite.config.ts', 'apps/server/drizzle.config.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
