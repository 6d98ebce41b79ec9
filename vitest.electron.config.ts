import { defineConfig } from 'vitest/config';

/**
 * The desktop app's smoke test (`npm run test:electron`): launches the built app with Playwright's
 * Electron support. Skipped, saying so, where the Electron binary is not installed.
 */
export default defineConfig({
  test: {
    name: 'electron',
    include: ['test/electron/**/*.electron.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    globalSetup: ['test/helpers/isolated-home.ts'],
  },
});
