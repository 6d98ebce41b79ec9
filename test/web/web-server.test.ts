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
let secret = '';

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

const authed = (headers: Record<string, string> = {}) => ({ cookie, 'x-renderdrop-session': secret, ...headers });
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  h = await startHost();
  const statics = join(await tempDir('rd-web-static-'), 'ui');
  await mkdir(join(statics, 'assets'), { recursive: true });
  await writeFile(join(statics, '..', 'config.json'), 'SECRET-OUTSIDE');
  await writeFile(join(statics, '.env'), 'SECRET-DOTFILE');
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

  it('trades the token once for an HttpOnly, SameSite=Strict cookie and the app page carrying its secret', async () => {
    const first = await raw('GET', '/?token=the-one-time-token-123456');
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['content-security-policy']).toMatch(/default-src 'self'/);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    cookie = setCookie.split(';')[0]!;
    expect(cookie).not.toContain('the-one-time-token');
    secret = /<meta name="renderdrop-session" content="([\w-]{40,})">/.exec(first.body)![1]!;
    expect(first.body).toContain('<title>Renderdrop</title>');
    expect(setCookie).not.toContain(secret);
    expect((await raw('GET', '/?token=the-one-time-token-123456')).status).toBe(401);
    const page = await raw('GET', '/', { cookie });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(secret);
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

  it('starts each event stream by telling the page to list its queue again, so nothing changed before it opened is missed', async () => {
    const first = await new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: web.port, path: '/api/events', headers: authed({ host: `127.0.0.1:${web.port}` }) }, (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
          const line = text.split('\n').find((l) => l.startsWith('data: '));
          if (line) {
            resolve(line);
            req.destroy();
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(first.slice(6))).toEqual({ name: 'jobs.reset', payload: { profileId: 'this-computer' } });
  });

  it('stages an uploaded file under its own name and answers a token', async () => {
    const up = await raw('PUT', '/api/upload?name=../../notes.blend', authed({ 'content-type': 'application/octet-stream' }), Buffer.from('hello'));
    expect(up.status).toBe(200);
    const { value } = JSON.parse(up.body) as { value: { token: string; size: number } };
    expect(value.size).toBe(5);
    expect(await readFile(join(h.dir, 'staged', value.token, 'notes.blend'), 'utf8')).toBe('hello');
  });
});

describe('browser mode: one error shape for every error', () => {
  const shape = (r: Raw) => ({ status: r.status, type: r.headers['content-type'], body: JSON.parse(r.body) as unknown });
  const anError = (status: number, code: string) => ({
    status,
    type: expect.stringMatching(/^application\/json/),
    body: { ok: false, error: { kind: expect.any(String), code, message: expect.any(String) } },
  });

  it('answers refusals, unknown routes and missing files as JSON errors', async () => {
    expect(shape(await raw('GET', '/'))).toEqual(anError(401, 'refused'));
    expect(shape(await raw('GET', '/', { host: 'evil.example' }))).toEqual(anError(421, 'refused'));
    expect(shape(await raw('POST', '/api/call/settings.get', authed({ ...json, origin: 'https://evil.example' }), '{}'))).toEqual(anError(403, 'refused'));
    expect(shape(await raw('GET', '/api/nothing', authed()))).toEqual(anError(404, 'no-route'));
    expect(shape(await raw('GET', '/assets/missing.js', authed()))).toEqual(anError(404, 'not-found'));
    expect(shape(await raw('DELETE', '/queue', authed()))).toEqual(anError(405, 'method'));
    expect(shape(await raw('POST', '/api/call/app.getState', authed({ 'content-type': 'text/plain' }), '{}'))).toEqual(anError(415, 'content-type'));
    expect(shape(await raw('POST', '/api/call/app.getState', authed(json), '{nope'))).toEqual(anError(400, 'bad-body'));
  });

  it('answers a malformed address with 400, not 500', async () => {
    expect(shape(await raw('GET', '/%E0%A4%A', authed()))).toEqual(anError(400, 'bad-url'));
    expect(shape(await raw('POST', '/api/call/%E0%A4%A', authed(json), '{}'))).toEqual(anError(400, 'bad-url'));
    expect(shape(await raw('GET', '/%E0%A4%A'))).toEqual(anError(400, 'bad-url'));
  });

  it('answers a body over 1 MiB with 413 instead of resetting the connection', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'a');
    expect(shape(await raw('POST', '/api/call/settings.update', authed(json), big))).toEqual(anError(413, 'too-large'));
    const chunked = await new Promise<Raw>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: web.port, method: 'POST', path: '/api/call/settings.update', headers: authed({ ...json, host: `127.0.0.1:${web.port}` }) }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      for (let i = 0; i < 32; i++) req.write(Buffer.alloc(64 * 1024, 'a'));
      req.end();
    });
    expect(shape(chunked)).toEqual(anError(413, 'too-large'));
  });

  it('never serves a file outside the built UI', async () => {
    for (const path of ['/../config.json', '/%2e%2e/config.json', '/assets/%2e%2e/%2e%2e/config.json', '/assets/..%2f..%2fconfig.json', '/.env']) {
      const answer = await raw('GET', path, authed());
      expect([path, answer.body]).not.toEqual([path, expect.stringContaining('SECRET')]);
      expect([path, JSON.parse(answer.body)]).toEqual([path, { ok: false, error: expect.objectContaining({ code: expect.any(String) }) }]);
    }
  });
});

describe('rendererDir', () => {
  it('finds out/renderer of the package, or the folder the environment names', () => {
    expect(rendererDir({}, join(process.cwd(), 'src', 'web', 'renderer-dir.ts'))).toBe(join(process.cwd(), 'out', 'renderer'));
    expect(rendererDir({ RENDERDROP_RENDERER_DIR: '/opt/ui' })).toBe('/opt/ui');
  });
});
