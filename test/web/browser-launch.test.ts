import { describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openInBrowser, writeLaunchPage } from '../../src/web/browser-launch';
import { tempDir } from '../helpers/scene-files';

const LOGIN = 'http://127.0.0.1:4567/?token=the-one-time-token-abc';

/** The link a launch page sends the browser to. */
function linkIn(page: string): string {
  const match = /url=([^"]+)"/.exec(page);
  if (!match) throw new Error(`no redirect in:\n${page}`);
  return match[1]!.replace(/&amp;/g, '&');
}

describe('the launch page of `renderdrop web --open`', () => {
  it('keeps the token in a file only this user can read, named without it', async () => {
    const page = await writeLaunchPage(LOGIN, await tempDir('rd-launch-'));
    expect(page.path).not.toContain('the-one-time-token');
    expect((await stat(page.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(page.path, '..'))).mode & 0o777).toBe(0o700);
    expect(linkIn(await readFile(page.path, 'utf8'))).toBe(LOGIN);
    await page.remove();
    await expect(stat(page.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('hands the opener only the page, and deletes the page once the token is traded', async () => {
    const opened: string[] = [];
    let trade: () => void = () => undefined;
    const tokenUsed = new Promise<void>((resolve) => (trade = resolve));
    await openInBrowser({ loginUrl: LOGIN, open: async (path) => void opened.push(path), tokenUsed, stopped: new Promise(() => undefined) });
    expect(opened).toHaveLength(1);
    expect(opened[0]).not.toContain('token');
    expect(linkIn(await readFile(opened[0]!, 'utf8'))).toBe(LOGIN);
    trade();
    await tokenUsed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(stat(opened[0]!)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
