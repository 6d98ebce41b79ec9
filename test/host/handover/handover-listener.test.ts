import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { handoverFilePath, readHandoverFile, startHandoverListener, type HandoverListener, type HandoverOutcome } from '../../../src/host/handover';
import { blendBytes, tempDir } from '../../helpers/scene-files';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let configDir: string;
let scenes: string;
let scene: string;
let listener: HandoverListener;
let delivered: string[];
let outcome: HandoverOutcome;

/** Sends one request to the listener, as the add-on or anything else on this computer could. */
function send(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<Answer> {
  const url = new URL(listener.info.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: Number(url.port), method: options.method ?? 'POST', path: options.path ?? '/handover', headers: { host: url.host, ...options.headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const authorized = (token = listener.info.token) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const handOver = (path: unknown, headers: Record<string, string> = authorized()) => send({ headers, body: JSON.stringify({ scene: path }) });

beforeEach(async () => {
  configDir = await tempDir('rd-handover-config-');
  scenes = await tempDir('rd-handover-scenes-');
  scene = join(scenes, 'shot.blend');
  await writeFile(scene, blendBytes());
  delivered = [];
  outcome = { accepted: true };
  listener = await startHandoverListener({
    configDir,
    deliver: async (path) => {
      delivered.push(path);
      return outcome;
    },
  });
});

afterEach(async () => {
  await listener.close();
});

describe('the hand-over file', () => {
  it('is written into the config folder, readable by this user only, with the address, a secret and the pid', async () => {
    expect(listener.file).toBe(handoverFilePath(configDir));
    expect((await stat(listener.file)).mode & 0o777).toBe(0o600);
    const info = JSON.parse(await readFile(listener.file, 'utf8')) as Record<string, unknown>;
    expect(info).toEqual({ version: 1, url: listener.info.url, token: listener.info.token, pid: process.pid });
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/handover$/);
    expect(String(info.token).length).toBeGreaterThanOrEqual(40);
  });

  it('gets a fresh secret for every start', async () => {
    const other = await startHandoverListener({ configDir: await tempDir('rd-handover-other-'), deliver: async () => ({ accepted: true }) });
    expect(other.info.token).not.toBe(listener.info.token);
    await other.close();
  });

  it('is removed when the listener stops, and the port no longer answers', async () => {
    await listener.close();
    expect(await readHandoverFile(configDir)).toBeNull();
    await expect(send({ headers: authorized(), body: JSON.stringify({ scene }) })).rejects.toThrow();
  });

  it('is left alone when another app has written its own since', async () => {
    const second = await startHandoverListener({ configDir, deliver: async () => ({ accepted: true }) });
    await listener.close();
    expect((await readHandoverFile(configDir))?.token).toBe(second.info.token);
    await second.close();
    expect(await readHandoverFile(configDir)).toBeNull();
  });
});

describe('POST /handover', () => {
  it('takes a scene with the secret: 202, and the scene goes into the app', async () => {
    expect(await handOver(scene)).toEqual({ status: 202, body: { accepted: true } });
    const zip = join(scenes, 'Shot Two.ZIP');
    await writeFile(zip, Buffer.from('PK\u0005\u0006' + '\0'.repeat(18), 'binary'));
    expect((await handOver(zip)).status).toBe(202);
    expect(delivered).toEqual([scene, zip]);
  });

  it('refuses without the secret, with a wrong one, or another scheme: 401 and nothing enters the app', async () => {
    const token = listener.info.token;
    const wrongSameLength = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const headers of [
      { 'content-type': 'application/json' },
      authorized(wrongSameLength),
      authorized('short'),
      authorized(`${token}x`),
      { authorization: `Basic ${token}`, 'content-type': 'application/json' },
      { authorization: token, 'content-type': 'application/json' },
    ]) {
      const answer = await handOver(scene, headers);
      expect(answer.status).toBe(401);
      expect(answer.body.accepted).toBe(false);
    }
    expect(delivered).toEqual([]);
  });

  it('refuses anything a web page sends (Origin, Sec-Fetch-Site), even with the secret', async () => {
    expect((await handOver(scene, { ...authorized(), origin: 'https://evil.example' })).status).toBe(403);
    expect((await handOver(scene, { ...authorized(), origin: 'null' })).status).toBe(403);
    expect((await handOver(scene, { ...authorized(), origin: listener.info.url.replace('/handover', '') })).status).toBe(403);
    expect((await handOver(scene, { ...authorized(), 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(delivered).toEqual([]);
  });

  it('takes JSON only (a form post or plain text is refused: 415)', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonp']) {
      expect((await handOver(scene, { ...authorized(), 'content-type': type })).status).toBe(415);
    }
    expect(delivered).toEqual([]);
  });

  it('refuses a missing, relative, non-scene or absent path: 400', async () => {
    const cases: unknown[] = [undefined, '', 42, 'shot.blend', './shot.blend', join(scenes, 'notes.txt'), join(scenes, 'missing.blend'), scenes + '/', `${scene}\u0000.blend`];
    await writeFile(join(scenes, 'notes.txt'), 'hello');
    for (const path of cases) {
      const answer = await handOver(path);
      expect(answer.status, JSON.stringify(path)).toBe(400);
      expect(typeof answer.body.error).toBe('string');
    }
    for (const body of ['not json', '[]', 'null', '{"file": "/tmp/a.blend"}']) expect((await send({ headers: authorized(), body })).status).toBe(400);
    expect(delivered).toEqual([]);
  });

  it('refuses a folder named like a scene: 400', async () => {
    const folder = join(scenes, 'folder.blend');
    await mkdir(folder);
    expect((await handOver(folder)).status).toBe(400);
  });

  it('caps the body: 413', async () => {
    const big = JSON.stringify({ scene, padding: 'x'.repeat(64 * 1024) });
    expect((await send({ headers: authorized(), body: big })).status).toBe(413);
    expect(delivered).toEqual([]);
  });

  it('says why when the app refuses the scene: 422 with its line', async () => {
    outcome = { accepted: false, error: 'No API key for the active profile. Add one in Settings.' };
    expect(await handOver(scene)).toEqual({ status: 422, body: { accepted: false, error: 'No API key for the active profile. Add one in Settings.' } });
  });

  it('serves nothing else: other paths 404, other methods 405, another Host 421', async () => {
    expect((await send({ method: 'GET', path: '/', headers: authorized() })).status).toBe(404);
    expect((await send({ path: '/handover/x', headers: authorized(), body: '{}' })).status).toBe(404);
    expect((await send({ method: 'GET', headers: authorized() })).status).toBe(405);
    expect((await send({ method: 'OPTIONS', headers: { ...authorized(), 'access-control-request-method': 'POST' } })).status).toBe(405);
    expect((await handOver(scene, { ...authorized(), host: 'evil.example:80' })).status).toBe(421);
    expect(delivered).toEqual([]);
  });
});
