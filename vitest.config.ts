import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` needs nothing installed; `integration` drives real Blender (files end in
 * `.int.test.ts`); `e2e` drives the app in Debian Chromium with real Blender (test/e2e, `.e2e.test.ts`).
 * The Electron smoke test (test/electron) needs the Electron binary and runs only with
 * `npm run test:electron` (vitest.electron.config.ts).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.int.test.ts', 'test/e2e/**', 'test/electron/**'],
          environment: 'node',
          alias: { electron: fileURLToPath(new URL('./test/main/helpers/electron-unavailable.ts', import.meta.url)) },
          server: { deps: { inline: ['electron-store'] } },
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.int.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
