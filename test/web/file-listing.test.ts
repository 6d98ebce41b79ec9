import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startWebServer, type WebServer } from '../../src/web/web-server';
import { startHost, type HostHarness } from '../host/host-harness';
import { tempDir } from '../helpers/scene-files';
import { logIn } from './web-login';

let base: string;
let home: string;
let h: HostHarness;
let web: WebServer;
let cookie = '';
let secret = '';

function post(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: web.port, method: 'POST', path, headers: { host: `127.0.0.1:${web.port}`, 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  base = await realpath(await tempDir('rd-web-files-'));
  home = join(base, 'home');
  await mkdir(join(home, 'Projects'), { recursive: true });
  await writeFile(join(home, 'Projects', 'shot.blend'), 'BLENDER-v300');
  await mkdir(join(base, 'elsewhere'));
  await writeFile(join(base, 'elsewhere', 'private.blend'), 'BLENDER-v300');
  await symlink(join(base, 'elsewhere'), join(home, 'Projects', 'escape'));
  h = await startHost({ home });
  const statics = join(base, 'ui');
  await mkdir(statics);
  await writeFile(join(statics, 'index.html'), '<!doctype html><title>Renderdrop</title>');
  web = await startWebServer({ host: h.host, staticDir: statics, token: 'files-token-123456789' });
  ({ cookie, secret } = await logIn(web.port, 'files-token-123456789'));
});

afterAll(async () => {
  await web.close();
  await h.close();
  await rm(base, { recursive: true, force: true });
});

describe('browser mode: the file browser goes through the guarded call route', () => {
  it('lists nothing without the session, or with another Origin or Host', async () => {
    const attempts = [
      await post('/api/call/files.list', '{"path":"Projects"}'),
      await post('/api/call/files.list', '{"path":"Projects"}', { cookie: 'renderdrop_session=guessed', 'x-renderdrop-session': secret }),
      await post('/api/call/files.list', '{"path":"Projects"}', { cookie }),
      await post('/api/call/files.list', '{"path":"Projects"}', { cookie, origin: 'https://evil.example' }),
      await post('/api/call/files.list', '{"path":"Projects"}', { cookie, origin: `http://127.0.0.1:${web.port + 1}` }),
      await post('/api/call/files.list', '{"path":"Projects"}', { cookie, host: `evil.example:${web.port}` }),
      await post('/api/call/files.list', '{"path":"Projects"}', { cookie, host: `127.0.0.1:${web.port + 1}` }),
    ];
    expect(attempts.map((a) => a.status)).toEqual([401, 401, 401, 403, 403, 421, 421]);
    for (const attempt of attempts) {
      expect(attempt.body).not.toContain('shot.blend');
      expect(JSON.parse(attempt.body)).toMatchObject({ ok: false, error: { kind: 'auth' } });
    }
  });

  it('lists a folder under home for the session on its own origin', async () => {
    const own = await post('/api/call/files.list', '{"path":"Projects"}', { cookie, 'x-renderdrop-session': secret, origin: web.url });
    expect(own.status).toBe(200);
    const listing = JSON.parse(own.body);
    expect(listing.ok).toBe(true);
    expect(listing.value.entries.map((e: { name: string }) => e.name)).toEqual(['shot.blend']);
  });

  it('never answers anything outside home, through `..` or a symlink', async () => {
    for (const path of ['..', 'Projects/../..', 'Projects/escape', join(base, 'elsewhere'), '/']) {
      const answer = await post('/api/call/files.list', JSON.stringify({ path }), { cookie, 'x-renderdrop-session': secret });
      expect(answer.body, path).not.toContain('private.blend');
      expect(JSON.parse(answer.body), path).toMatchObject({ ok: false, error: { code: 'outside-home' } });
    }
  });
});
