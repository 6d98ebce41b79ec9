import { fileURLToPath } from 'node:url';
import { defineConfig } from 'electron-vite';
import rendererConfig from './vite.renderer.config';

const at = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The desktop app's build: main (ES module, dependencies left to node_modules) into out/main and the
 * sandboxed preload (one CommonJS file, nothing but `electron` required) into out/preload. The
 * renderer is vite.renderer.config.ts: `npm run build` builds it on its own (browser mode uses the
 * same out/renderer), and `electron-vite dev` serves it with hot reload.
 */
export default defineConfig(({ command }) => ({
  main: {
    build: {
      outDir: at('./out/main'),
      sourcemap: true,
      lib: { entry: at('./src/main/index.ts') },
    },
  },
  preload: {
    build: {
      outDir: at('./out/preload'),
      sourcemap: true,
      externalizeDeps: false,
      lib: { entry: at('./src/preload/index.ts') },
      rolldownOptions: { output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  ...(command === 'serve' ? { renderer: rendererConfig } : {}),
}));
