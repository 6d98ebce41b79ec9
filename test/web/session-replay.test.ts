import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startWebServer, type WebServer } from '../../src/web/web-server';
import { startHost, type HostHarness } from '../host/host-harness';
import { tempDir } from '../helpers/scene-files';
import { logIn, type WebLogin } from './web-login';

interface Answer {
  status: number;
  body: string;
}

let base: string;
let home: string;
let h: HostHarness;
let web: WebServer;
let login: WebLogin;

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, method, path, headers: { host: `127.0.0.1:${web.port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => {
        text += c;
        if (path === '/api/events' && res.statusCode === 200) req.destroy();
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      res.on('close', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', (error) => (path === '/api/events' ? undefined : reject(error)));
    req.end(body);
  });
}

/** Every route of the API, each with the request the app's page makes. */
const ROUTES: { method: string; path: string; headers: Record<string, string>; body: string | undefined }[] = [
  { method: 'POST', path: '/api/call/submissions.submit', headers: { 'content-type': 'application/json' }, body: '' },
  { method: 'POST', path: '/api/call/settings.update', headers: { 'content-type': 'application/json' }, body: '{"autoDownload":false}' },
  { method: 'PUT', path: '/api/upload?name=stolen.blend', headers: { 'content-type': 'application/octet-stream' }, body: 'BLENDER-v300' },
  { method: 'GET', path: '/api/events', headers: {}, body: undefined },
];

beforeAll(async () => {
  base = await realpath(await tempDir('rd-web-replay-'));
  home = join(base, 'home');
  await mkdir(join(home, 'Projects'), { recursive: true });
  await writeFile(join(home, 'Projects', 'shot.blend'), 'BLENDER-v300');
  await mkdir(join(base, 'elsewhere'));
  await writeFile(join(base, 'elsewhere', 'private.blend'), 'BLENDER-v300');
  h = await startHost({ home });
  ROUTES[0]!.body = JSON.stringify({ files: [{ path: join(base, 'elsewhere', 'private.blend') }] });
  const statics = join(base, 'ui');
  await mkdir(statics);
  await writeFile(join(statics, 'index.html'), '<!doctype html><html><head><title>Renderdrop</title></head><body></body></html>');
  web = await startWebServer({ host: h.host, staticDir: statics, token: 'replay-token-123456789' });
  login = await logIn(web.port, 'replay-token-123456789');
});

afterAll(async () => {
  await web.close();
  await h.close();
  await rm(base, { recursive: true, force: true });
});

describe('browser mode: the session cookie replayed without the page secret', () => {
  it('is refused on every route, with one line, and the host does nothing', async () => {
    for (const route of ROUTES) {
      const answer = await send(route.method, route.path, { ...route.headers, cookie: login.cookie }, route.body);
      expect([route.path, answer.status]).toEqual([route.path, 401]);
      const { error } = JSON.parse(answer.body) as { error: { kind: string; code: string; message: string } };
      expect(error).toMatchObject({ kind: 'auth', code: 'refused' });
      expect(error.message).not.toContain('\n');
    }
    expect(await h.value('submissions.list', {})).toEqual([]);
    expect((await h.value('settings.get', {})).autoDownload).toBe(true);
  });

  it('is refused with a wrong secret, and the secret is refused without the cookie', async () => {
    const call = ROUTES[1]!;
    const wrong = await send(call.method, call.path, { ...call.headers, cookie: login.cookie, 'x-renderdrop-session': `${login.secret.slice(1)}x` }, call.body);
    const noCookie = await send(call.method, call.path, { ...call.headers, 'x-renderdrop-session': login.secret }, call.body);
    expect([wrong.status, noCookie.status]).toEqual([401, 401]);
  });

  it('is refused from another site even with both, when the browser says so (Sec-Fetch-Site)', async () => {
    const call = ROUTES[1]!;
    const both = { cookie: login.cookie, 'x-renderdrop-session': login.secret };
    const crossSite = await send(call.method, call.path, { ...call.headers, ...both, 'sec-fetch-site': 'same-site' }, call.body);
    expect(crossSite.status).toBe(403);
    expect((await h.value('settings.get', {})).autoDownload).toBe(true);
  });

  it('still loads the app page with the cookie alone (a reload), without handing the secret out again', async () => {
    const page = await send('GET', '/', { cookie: login.cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Renderdrop</title>');
    expect(page.body).not.toContain(login.secret);
    expect(page.body).not.toContain('renderdrop-session');
  });
});

describe('browser mode: the app page with its secret', () => {
  const asPage = (headers: Record<string, string>) => ({ ...headers, cookie: login.cookie, 'x-renderdrop-session': login.secret, origin: web.url, 'sec-fetch-site': 'same-origin' });

  it('calls, uploads and reads events', async () => {
    const state = await send('POST', '/api/call/app.getState', asPage({ 'content-type': 'application/json' }), '{}');
    expect(JSON.parse(state.body)).toMatchObject({ ok: true, value: { shell: 'web' } });
    const upload = await send('PUT', '/api/upload?name=shot.blend', asPage({ 'content-type': 'application/octet-stream' }), 'BLENDER-v300');
    expect(JSON.parse(upload.body)).toMatchObject({ ok: true, value: { size: 12 } });
    const events = await send('GET', '/api/events', asPage({}));
    expect(events.status).toBe(200);
    expect(events.body).toContain('retry:');
  });

  it('submits only scenes in home, and sets only a download folder in home', async () => {
    const submit = (path: string) => send('POST', '/api/call/submissions.submit', asPage({ 'content-type': 'application/json' }), JSON.stringify({ files: [{ path }] }));
    for (const path of [join(base, 'elsewhere', 'private.blend'), join(home, '..', 'elsewhere', 'private.blend'), '../elsewhere/private.blend']) {
      expect(JSON.parse((await submit(path)).body), path).toEqual({
        ok: false,
        error: { kind: 'not-found', code: 'outside-home', message: 'Only scenes in your home folder can be opened here.' },
      });
    }
    expect(await h.value('submissions.list', {})).toEqual([]);
    const inside = JSON.parse((await submit(join(home, 'Projects', 'shot.blend'))).body) as { ok: boolean; error?: { code?: string } };
    expect(inside.error?.code ?? 'submitted').not.toBe('outside-home');

    const update = (downloadDir: string) => send('POST', '/api/call/settings.update', asPage({ 'content-type': 'application/json' }), JSON.stringify({ downloadDir }));
    expect(JSON.parse((await update(join(base, 'elsewhere'))).body)).toMatchObject({ ok: false, error: { code: 'outside-home' } });
    expect(JSON.parse((await update('Renders')).body)).toMatchObject({ ok: true, value: { downloadDir: join(home, 'Renders') } });
  });

  it('leaves in-process callers (the desktop app, tests) free to name any path', async () => {
    const elsewhere = join(base, 'elsewhere');
    expect((await h.value('settings.update', { downloadDir: elsewhere })).downloadDir).toBe(elsewhere);
  });
});
