import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A page on disk that sends the browser to the one-time link; `remove` deletes it. */
export interface LaunchPage {
  path: string;
  remove(): Promise<void>;
}

/**
 * Writes a page that sends the browser to `loginUrl` into a new folder only this user can read
 * (0700, the page 0600), so the one-time token never appears on a command line: a browser opener's
 * arguments are visible to every user of the machine (`/proc/<pid>/cmdline`), a private file is not.
 */
export async function writeLaunchPage(loginUrl: string, parent: string = privateTempDir()): Promise<LaunchPage> {
  const dir = await mkdtemp(join(parent, 'renderdrop-open-'));
  const path = join(dir, 'open-renderdrop.html');
  const target = escapeHtml(loginUrl);
  const page = [
    '<!doctype html>',
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0;url=${target}">`,
    '<title>Opening Renderdrop…</title>',
    `<p>Opening Renderdrop… <a href="${target}">Continue</a></p>`,
    '',
  ].join('\n');
  await writeFile(path, page, { mode: 0o600, flag: 'wx' });
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** The user's own runtime folder when the system has one (XDG_RUNTIME_DIR), else the temp folder. */
function privateTempDir(env: Record<string, string | undefined> = process.env): string {
  return env.XDG_RUNTIME_DIR?.trim() || tmpdir();
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Opens browser mode in the default browser through a launch page, and deletes the page once the
 * token has been traded (or when `stopped` resolves), so it does not linger.
 */
export async function openInBrowser(options: { loginUrl: string; open: (path: string) => Promise<void>; tokenUsed: Promise<void>; stopped: Promise<void> }): Promise<void> {
  const page = await writeLaunchPage(options.loginUrl);
  void Promise.race([options.tokenUsed, options.stopped]).then(() => page.remove());
  try {
    await options.open(page.path);
  } catch (error) {
    await page.remove();
    throw error;
  }
}
