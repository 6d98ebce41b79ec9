import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startWebServer, type WebServer } from '../../src/web/web-server';
import { rendererDir } from '../../src/web/renderer-dir';
import { startHost, type HostHarness } from '../host/host-harness';
import { tempDir } from '../helpers/scene-files';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let h: HostHarness;
let web: WebServer;
let cookie = '';

function raw(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: web.port, method, path, headers: { host: `127.0.0.1:${web.port}`, ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const authed = (headers: Record<string, string> = {}) => ({ cookie, ...headers });
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  h = await startHost();
  const statics = await tempDir('rd-web-static-');
  await mkdir(join(statics, 'assets'));
  await writeFile(join(statics, 'index.html'), '<!doctype html><title>Renderdrop</title>');
  await writeFile(join(statics, 'assets', 'app.js'), 'console.log(1)');
  web = await startWebServer({ host: h.host, staticDir: statics, token: 'the-one-time-token-123456', keepAliveSeconds: 1 });
});

afterAll(async () => {
  await web.close();
  await h.close();
});

describe('browser mode: the one-time token and the session cookie', () => {
  it('listens on 127.0.0.1 only and prints a link with the token', () => {
    expect(web.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(web.loginUrl).toBe(`${web.url}/?token=the-one-time-token-123456`);
  });

  it('refuses the page and the API without the token or the cookie', async () => {
    expect((await raw('GET', '/')).status).toBe(401);
    expect((await raw('GET', '/assets/app.js')).status).toBe(401);
    const call = await raw('POST', '/api/call/app.getState', json, '{}');
    expect(call.status).toBe(401);
    expect(JSON.parse(call.body)).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect((await raw('GET', '/?token=wrong-token')).status).toBe(401);
    expect((await raw('GET', '/api/events')).status).toBe(401);
    expect((await raw('PUT', '/api/upload?name=a.blend', {}, 'x')).status).toBe(401);
  });

  it('trades the token once for an HttpOnly, SameSite=Strict cookie', async () => {
    const first = await raw('GET', '/?token=the-one-time-token-123456');
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    cookie = setCookie.split(';')[0]!;
    expect(cookie).not.toContain('the-one-time-token');
    expect((await raw('GET', '/?token=the-one-time-token-123456')).status).toBe(401);
    const page = await raw('GET', '/', authed());
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect((await raw('GET', '/queue/deep/link', authed())).body).toContain('<title>Renderdrop</title>');
    expect((await raw('GET', '/assets/app.js', authed())).headers['content-type']).toMatch(/javascript/);
  });
});

describe('browser mode: Host and Origin', () => {
  it('refuses a foreign Host even with the cookie (DNS rebinding)', async () => {
    expect((await raw('GET', '/', authed({ host: `evil.example:${web.port}` }))).status).toBe(421);
    expect((await raw('POST', '/api/call/app.getState', authed({ ...json, host: 'evil.example' }), '{}')).status).toBe(421);
    expect((await raw('GET', '/', authed({ host: `127.0.0.1:${web.port + 1}` }))).status).toBe(421);
    expect((await raw('GET', '/', authed({ host: `localhost:${web.port}` }))).status).toBe(200);
  });

  it('refuses a foreign Origin even with the cookie', async () => {
    const call = await raw('POST', '/api/call/settings.update', authed({ ...json, origin: 'https://evil.example' }), '{"autoDownload":false}');
    expect(call.status).toBe(403);
    expect((await raw('PUT', '/api/upload?name=a.blend', authed({ origin: 'http://127.0.0.1:1' }), 'x')).status).toBe(403);
    const own = await raw('POST', '/api/call/settings.get', authed({ ...json, origin: web.url }), '{}');
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body).value.autoDownload).toBe(true);
  });
});

describe('browser mode: calls, events and uploads', () => {
  it('validates calls with the contract schemas and answers errors as values', async () => {
    const bad = JSON.parse((await raw('POST', '/api/call/settings.update', authed(json), '{"theme":"pink"}')).body);
    expect(bad).toMatchObject({ ok: false, error: { kind: 'contract', code: 'invalid-request' } });
    const unknown = JSON.parse((await raw('POST', '/api/call/secrets.dump', authed(json), '{}')).body);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unknown-call' } });
    expect((await raw('POST', '/api/call/app.getState', authed({ 'content-type': 'text/plain' }), '{}')).status).toBe(415);
    expect((await raw('POST', '/api/call/app.getState', authed(json), '{nope')).status).toBe(400);
    expect((await raw('GET', '/../config.json', authed())).status).not.toBe(200);
    const state = JSON.parse((await raw('POST', '/api/call/app.getState', authed(json), '{}')).body);
    expect(state).toMatchObject({ ok: true, value: { shell: 'web', activeProfileId: 'this-computer' } });
  });

  it('streams events over SSE', async () => {
    const received = new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: web.port, path: '/api/events', headers: authed({ host: `127.0.0.1:${web.port}` }) }, (res) => {
        expect(res.headers['content-type']).toMatch(/text\/event-stream/);
        let text = '';
        res.on('data', (c) => {
          text += c;
          if (text.includes('"app.changed"')) {
            resolve(text);
            req.destroy();
          }
        });
        setTimeout(() => {
          void raw('POST', '/api/call/settings.update', authed(json), '{"notifications":false}');
        }, 100);
      });
      req.on('error', reject);
      req.end();
    });
    const text = await received;
    const line = text.split('\n').find((l) => l.startsWith('data: ') && l.includes('app.changed'))!;
    expect(JSON.parse(line.slice(6)).payload.settings.notifications).toBe(false);
  });

  it('stages an uploaded file under its own name and answers a token', async () => {
    const up = await raw('PUT', '/api/upload?name=../../notes.blend', authed({ 'content-type': 'application/octet-stream' }), Buffer.from('hello'));
    expect(up.status).toBe(200);
    const { value } = JSON.parse(up.body) as { value: { token: string; size: number } };
    expect(value.size).toBe(5);
    expect(await readFile(join(h.dir, 'staged', value.token, 'notes.blend'), 'utf8')).toBe('hello');
  });
});

describe('rendererDir', () => {
  it('finds out/renderer of the package, or the folder the environment names', () => {
    expect(rendererDir({}, join(process.cwd(), 'src', 'web', 'renderer-dir.ts'))).toBe(join(process.cwd(), 'out', 'renderer'));
    expect(rendererDir({ RENDERDROP_RENDERER_DIR: '/opt/ui' })).toBe('/opt/ui');
  });
});
