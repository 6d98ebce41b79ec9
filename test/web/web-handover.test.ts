import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readHandoverFile, submitHandedOver } from '../../src/host/handover';
import type { SubmitFileResult } from '../../src/shared/contract';
import { startWebServer, type WebServer } from '../../src/web/web-server';
import { startFarmHost, startHost, type HostHarness } from '../host/host-harness';
import { blendBytes, tempDir } from '../helpers/scene-files';

let h: HostHarness;
let web: WebServer;
let statics: string;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ({ h } = await startFarmHost(cleanup));
  statics = await tempDir('rd-web-handover-static-');
  await writeFile(join(statics, 'index.html'), '<!doctype html><title>Renderdrop</title>');
  web = await startWebServer({ host: h.host, staticDir: statics });
});

afterAll(async () => {
  await web.close();
  for (const stop of cleanup.reverse()) await stop();
});

function handOver(scene: string, token: string | null): Promise<Response> {
  return fetch(web.handoverUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== null ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ scene }),
  });
}

describe('browser mode listens for the Blender add-on', () => {
  it('announces its own listener in the config folder, separate from the page server', async () => {
    const info = await readHandoverFile(h.dir);
    expect(info?.url).toBe(web.handoverUrl);
    expect(info?.pid).toBe(process.pid);
    expect(new URL(web.handoverUrl!).port).not.toBe(String(web.port));
    expect((await stat(join(h.dir, 'handover.json'))).mode & 0o777).toBe(0o600);
  });

  it('submits a scene handed over with the secret, the way a dropped file is', async () => {
    const scenes = join(h.dir, 'home', 'scenes');
    await mkdir(scenes, { recursive: true });
    const refused = join(scenes, 'refused.blend');
    await writeFile(refused, blendBytes());
    expect((await handOver(refused, null)).status).toBe(401);
    expect((await handOver(refused, 'x'.repeat(43))).status).toBe(401);
    expect(h.events.some((e) => e.name === 'submission.updated' && e.payload.fileName === 'refused.blend')).toBe(false);

    const scene = join(scenes, 'handed.blend');
    await writeFile(scene, blendBytes());
    const token = (await readHandoverFile(h.dir))!.token;
    const answer = await handOver(scene, token);
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ accepted: true, submissionId: expect.any(String) });
    await h.waitFor((e) => e.name === 'submission.updated' && e.payload.fileName === 'handed.blend' && e.payload.phase === 'review');
    expect((await h.value('submissions.list', {})).map((s) => s.fileName)).toContain('handed.blend');
  });

  it('turns what the app answers into the hand-over outcome', async () => {
    const answer = (results: SubmitFileResult[]) => async () => results;
    expect(await submitHandedOver(answer([{ ok: true, name: 'a.blend', submissionId: 's1' }]), '/a.blend')).toEqual({ accepted: true, submissionId: 's1' });
    expect(await submitHandedOver(answer([{ ok: false, name: 'a.blend', error: { kind: 'preflight', message: 'Not a Blender file.' } }]), '/a.blend')).toEqual({
      accepted: false,
      error: 'Not a Blender file.',
    });
    expect((await submitHandedOver(answer([]), '/a.blend')).accepted).toBe(false);
    const thrown = await submitHandedOver(async () => {
      throw new Error('boom');
    }, '/a.blend');
    expect(thrown).toEqual({ accepted: false, error: 'Unexpected error: boom' });
  });

  it('says in one line why the app refused a scene (422), e.g. when This computer cannot render', async () => {
    const other = await startHost({ localNode: false });
    const server = await startWebServer({ host: other.host, staticDir: statics });
    const scene = join(other.dir, 'shot.blend');
    await writeFile(scene, blendBytes());
    const answer = await fetch(server.handoverUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${(await readHandoverFile(other.dir))!.token}` },
      body: JSON.stringify({ scene }),
    });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { accepted: boolean; error: string };
    expect(body.accepted).toBe(false);
    expect(body.error).toMatch(/\S/);
    expect(body.error).not.toMatch(/\n/);
    await server.close();
    await other.close();
  });

  it('removes handover.json when it stops; without the listener none is written', async () => {
    const other = await startHost({ localNode: false });
    const plain = await startWebServer({ host: other.host, staticDir: statics, handover: false });
    expect(plain.handoverUrl).toBeNull();
    expect(await readHandoverFile(other.dir)).toBeNull();
    await plain.close();
    const listening = await startWebServer({ host: other.host, staticDir: statics });
    expect(await readHandoverFile(other.dir)).not.toBeNull();
    await listening.close();
    expect(await readHandoverFile(other.dir)).toBeNull();
    await other.close();
  });
});
