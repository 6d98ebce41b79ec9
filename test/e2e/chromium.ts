import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's Chromium lives (override with CHROMIUM_PATH). */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/**
 * Whether the browser tests can run. Without Chromium: false on a developer machine (the tests are
 * skipped, saying so), an error in CI (`CI` set), where a missing browser must fail the run.
 */
export function requireChromium(): boolean {
  if (existsSync(chromiumPath())) return true;
  if (process.env.CI) {
    throw new Error(`Chromium is required for the end-to-end tests in CI but ${chromiumPath()} does not exist. Install it with \`apt-get install chromium\` (scripts/toolchain.sh does).`);
  }
  process.stderr.write(`Skipping browser tests: no Chromium at ${chromiumPath()} (apt-get install chromium).\n`);
  return false;
}

/**
 * Debian's Chromium, headless, sandbox off (containers), no network chatter. Playwright gives every
 * launch a fresh temporary profile (user-data dir) of its own.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
