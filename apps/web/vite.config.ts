import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
import { signedOutLibraryModules, vendorChunkOf } from './chunking.ts';
import { precompress } from './precompress.ts';
import { routePreloads } from './route-preloads.ts';

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
  // Library code in two chunks, for signed-in screens and for all (chunking.ts), found with a first build.
  const signedOut = await signedOutLibraryModules({ root: import.meta.dirname, plugins: [react()], build: base.build });
  return {
    ...base,
    plugins: [react(), routePreloads(), precompress()],
    build: {
      ...base.build,
      // Only the captured modules: their dependencies that signed-out pages load stay where they were.
      rolldownOptions: { output: { codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: vendorChunkOf(signedOut), debugName: 'vendor' }] } } },
    },
  };
});
