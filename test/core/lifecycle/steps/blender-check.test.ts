import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../../src/core/api/api-client';
import { PreflightError } from '../../../../src/core/errors';
import { SubmissionJournal } from '../../../../src/core/journal/submission-journal';
import { recordForFile } from '../../../../src/core/lifecycle/record-for-file';
import { SubmissionLifecycle } from '../../../../src/core/lifecycle/submission-lifecycle';
import { pollingWaiter } from '../../../../src/core/lifecycle/wait-for-job';
import type { NodeWorkers, RenderConfig } from '../../../../src/shared/api';
import { SyntheticBlend } from '../../../blend/helpers/synthetic-blend';
import { FakeApi } from '../../../helpers/fake-api-server';
import { sendJson } from '../../../helpers/hostile-server';
import { tempDir } from '../../../helpers/scene-files';

const P = '/api/external/v1';
let api: FakeApi;
let client: ApiClient;
let dir: string;
let journal: SubmissionJournal;
/** What the farm answers at `GET /node/workers`; null: 404, as another farm does. */
let farm: NodeWorkers | null;

beforeEach(async () => {
  api = await FakeApi.start();
  client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-test', sleep: async () => undefined });
  dir = await tempDir('rd-blender-check-');
  journal = new SubmissionJournal({ dataDir: await tempDir() });
  farm = null;
  api.server.route('GET', `${P}/node/workers`, (_req, res) =>
    farm ? sendJson(res, 200, farm) : sendJson(res, 404, { error: { code: 'not_found', message: 'Not found.' } }),
  );
});
afterEach(async () => {
  api.server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The farm lists these Blender versions at `GET /node/workers`. */
function farmHas(view: NodeWorkers): void {
  farm = view;
}

async function submit(name: string, bytes: Buffer, renderConfig?: RenderConfig) {
  const path = join(dir, name);
  await writeFile(path, bytes);
  const { record } = await recordForFile(journal, { filePath: path, baseUrl: api.server.url, profileId: null, pack: false });
  const claimed = await new SubmissionLifecycle({ client, journal, waitForJob: pollingWaiter(client, { intervalMs: 0 }) }).claim(record);
  try {
    return await claimed.advance({ until: 'validated', ...(renderConfig ? { renderConfig } : {}) }).then(
      (done) => ({ done, error: null }),
      (error: unknown) => ({ done: claimed.record, error }),
    );
  } finally {
    claimed.release();
  }
}

describe('a scene newer than every Blender of the farm', () => {
  it('is refused before anything is sent, in one line naming both versions and a way that works', async () => {
    farmHas({ mode: 'distributed', blenderVersions: ['3.4.1', '4.3.2'], redis: 'redis://x', chunks: { waiting: 0, active: 0, delayed: 0 }, workers: [] });
    const { done, error } = await submit('shot.blend', new SyntheticBlend({ format: 1 }).build());
    expect(error).toBeInstanceOf(PreflightError);
    const message = (error as PreflightError).message;
    expect(message).toBe(
      'shot.blend was saved with Blender 5.0, and this farm renders with Blender 3.4.1, 4.3.2 only, which cannot open it. Nothing was sent; send it to a farm that has Blender 5.0 or newer.',
    );
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(/\bsave (it|as)\b/i);
    expect((error as PreflightError).code).toBe('blender-too-new');
    expect(done).toMatchObject({ ending: 'failed', error: { message } });
    expect(api.count('POST', `${P}/uploads`)).toBe(0);
    expect(api.uploads.size).toBe(0);
  });

  it('is read from a zstd-compressed file too', async (ctx) => {
    if (typeof zlib.zstdCompressSync !== 'function') return ctx.skip();
    farmHas({ mode: 'embedded', blenderVersions: ['3.4.1'] });
    const { error } = await submit('shot.blend', zlib.zstdCompressSync(new SyntheticBlend({ version: 402 }).build()));
    expect((error as Error).message).toMatch(/^shot\.blend was saved with Blender 4\.2, and this farm renders with Blender 3\.4\.1 only/);
    expect(api.count('POST', `${P}/uploads`)).toBe(0);
  });

  it('goes on when the farm has its Blender or a newer one, or does not say which it has', async () => {
    farmHas({ mode: 'embedded', blenderVersions: ['3.4.1', '4.3.2'] });
    expect((await submit('a.blend', new SyntheticBlend({ version: 402 }).build())).error).toBeNull();
    expect(api.count('POST', `${P}/uploads`)).toBe(1);
    farm = null;
    expect((await submit('b.blend', new SyntheticBlend({ format: 1 }).build())).error).toBeNull();
    expect(api.count('POST', `${P}/uploads`)).toBe(2);
  });
});

describe('a Blender version the artist picks', () => {
  const farm34and43: NodeWorkers = { mode: 'distributed', blenderVersions: ['3.4.1', '4.3.2'], redis: 'redis://x', chunks: { waiting: 0, active: 0, delayed: 0 }, workers: [] };
  const picking = (blenderVersion: string): RenderConfig => ({ colorManagementPreset: 'default', blenderVersion });

  it('is refused before anything is sent when the farm does not have it, in one line naming the versions it has', async () => {
    farmHas(farm34and43);
    const { done, error } = await submit('shot.blend', new SyntheticBlend({ version: 304 }).build(), picking('5.2'));
    expect(error).toBeInstanceOf(PreflightError);
    expect((error as PreflightError).code).toBe('blender-unavailable');
    expect((error as Error).message).toBe('This farm has no Blender 5.2 (it renders with Blender 3.4.1, 4.3.2). Nothing was sent; choose one of 3.4.1, 4.3.2 or leave the choice to the farm.');
    expect(done).toMatchObject({ ending: 'failed' });
    expect(api.count('POST', `${P}/uploads`)).toBe(0);
  });

  it('is refused when it is older than the file\'s, when no worker is connected, and when the server does not list its versions', async () => {
    farmHas(farm34and43);
    expect((await submit('new.blend', new SyntheticBlend({ version: 402 }).build(), picking('3.4'))).error).toMatchObject({
      message: 'new.blend was saved with Blender 4.2, which Blender 3.4.1 cannot open. Nothing was sent; choose 4.3.2 or leave the choice to the farm.',
    });
    farmHas({ ...farm34and43, blenderVersions: [] });
    expect((await submit('a.blend', new SyntheticBlend({ version: 304 }).build(), picking('4.3'))).error).toMatchObject({
      message: 'This farm has no Blender 4.3 (it has no render worker connected now). Nothing was sent; leave the choice to the farm.',
    });
    farm = null;
    expect((await submit('b.blend', new SyntheticBlend({ version: 304 }).build(), picking('4.3'))).error).toMatchObject({
      message: 'This server does not say which Blender versions it has, so b.blend cannot be rendered with Blender 4.3 there. Nothing was sent; leave the choice of Blender to the farm.',
    });
    expect(api.count('POST', `${P}/uploads`)).toBe(0);
  });

  it('goes on when the farm has it, by series or exactly', async () => {
    farmHas(farm34and43);
    expect((await submit('a.blend', new SyntheticBlend({ version: 304 }).build(), picking('4.3'))).error).toBeNull();
    expect((await submit('b.blend', new SyntheticBlend({ version: 304 }).build(), picking('3.4.1'))).error).toBeNull();
    expect(api.count('POST', `${P}/uploads`)).toBe(2);
  });
});
