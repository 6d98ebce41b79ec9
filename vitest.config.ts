import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Three projects: `unit` needs nothing installed and runs in-process (its setup file makes starting a
 * child process fail the test); `integration` starts processes and drives real tools: Blender, the
 * CLI as a process, zip/7z, Redis, tmpfs mounts (files end in `.int.test.ts`); `e2e` drives the app
 * in Debian Chromium with real Blender (test/e2e, `.e2e.test.ts`).
 * The Electron smoke test (test/electron) needs the Electron binary and runs only with
 * `npm run test:electron` (vitest.electron.config.ts).
 */
export default defineConfig({
  test: {
    // Every core runs test files (vitest's default leaves one idle, which on two cores means one at a
    // time); integration and e2e stay one file at a time through `fileParallelism: false`.
    maxWorkers: '100%',
    // Every test runs with a home folder made for the run; the real home's Blender preferences,
    // Renderdrop settings and keyrings are compared before and after (test/helpers/isolated-home.ts).
    globalSetup: ['test/helpers/isolated-home.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.int.test.ts', 'test/e2e/**', 'test/electron/**'],
          environment: 'node',
          setupFiles: ['test/helpers/no-child-processes.ts'],
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
