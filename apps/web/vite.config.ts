import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { libraryModules, vendorChunkOf } from './chunking.ts';
import { precompress } from './precompress.ts';
import { routePreloads } from './route-preloads.ts';
import { cssVariablesResolver, theme, themeVariablesKey } from './src/theme.ts';

const base = {
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    manifest: true,
  },
} satisfies UserConfig;

export default defineConfig(async ({ command }) => {
  if (command !== 'build') return { ...base, plugins: [react()] };
  // Library code in three chunks, for all pages, for /dashboard/main and for the other signed-in screens (chunking.ts), found with a first build.
  const libraries = await libraryModules({ root: import.meta.dirname, plugins: [react()], build: base.build });
  // The theme's colour variables, worked out here rather than in the first render (src/theme.ts).
  const merged = mergeMantineTheme(DEFAULT_THEME, theme);
  const themeVariables = { key: themeVariablesKey(merged), variables: cssVariablesResolver(merged) };
  return {
    ...base,
    define: { __SB_THEME_VARIABLES__: JSON.stringify(themeVariables) },
    plugins: [react(), routePreloads(), precompress()],
    build: {
      ...base.build,
      // Only the captured modules: their dependencies that signed-out pages load stay where they were.
      rolldownOptions: { output: { codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: vendorChunkOf(libraries), debugName: 'vendor' }] } } },
    },
  };
});
