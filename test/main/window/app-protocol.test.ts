import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Protocol } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../helpers/scene-files';
import { registerAppScheme, resolveAppFile, serveAppFiles } from '../../../src/main/window/app-protocol';

vi.mock('electron', () => ({}));

describe('the app:// scheme', () => {
  it('maps app://renderdrop paths into the renderer folder and nowhere else', () => {
    expect(resolveAppFile('/r', 'app://renderdrop/')).toEqual({ path: '/r/index.html', contentType: 'text/html; charset=utf-8' });
    expect(resolveAppFile('/r', 'app://renderdrop/assets/index-abc.js?x=1')).toEqual({ path: '/r/assets/index-abc.js', contentType: 'text/javascript; charset=utf-8' });
    expect(resolveAppFile('/r', 'app://renderdrop/../etc/passwd.css')).toMatchObject({ path: '/r/etc/passwd.css' });
    expect(resolveAppFile('/r', 'app://renderdrop/%2e%2e/%2e%2e/etc/x.js')).toMatchObject({ path: '/r/etc/x.js' });
    expect(resolveAppFile('/r', 'app://renderdrop/..%2f..%2fetc%2fx.js')).toBeNull();
    expect(resolveAppFile('/r', 'app://renderdrop/a%00.js')).toBeNull();
    expect(resolveAppFile('/r', 'app://renderdrop/%E0%A4%A.js')).toBeNull();
    expect(resolveAppFile('/r', 'app://other/index.html')).toBeNull();
    expect(resolveAppFile('/r', 'app://renderdrop/secrets.sqlite')).toBeNull();
  });

  it('is registered as a standard, secure scheme', () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged } as unknown as Protocol);
    expect(registerSchemesAsPrivileged).toHaveBeenCalledWith([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
  });

  it('serves files with the CSP and nosniff, and 404s anything else', async () => {
    const root = await tempDir('rd-protocol-');
    await mkdir(join(root, 'assets'));
    await writeFile(join(root, 'index.html'), '<!doctype html>');
    await writeFile(join(root, 'assets', 'a.js'), 'export {}');
    let handler: ((request: Request) => Promise<Response>) | null = null;
    serveAppFiles({ handle: (_scheme: string, h: never) => (handler = h) } as unknown as Protocol, root, "default-src 'self'");
    const page = await handler!(new Request('app://renderdrop/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toBe('<!doctype html>');
    expect((await handler!(new Request('app://renderdrop/assets/a.js'))).headers.get('content-type')).toMatch(/javascript/);
    expect((await handler!(new Request('app://renderdrop/missing.js'))).status).toBe(404);
    const post = await handler!(new Request('app://renderdrop/index.html', { method: 'POST', body: 'x' }));
    expect(post.status).toBe(404);
    expect(post.headers.get('content-security-policy')).toBe("default-src 'self'");
  });
});
