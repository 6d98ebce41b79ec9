import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveDisplay } from '../../src/cli/output/live-display';
import type { CliIo } from '../../src/cli/terminal/cli-io';
import { listenForInterrupt } from '../../src/cli/terminal/interrupt';
import { SubmissionRunner } from '../../src/cli/submit/submission-runner';
import { terminalPrompt } from '../../src/cli/terminal/terminal-prompt';
import { ApiClient } from '../../src/core/api/api-client';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { recordForFile } from '../../src/core/lifecycle/record-for-file';
import { formatBytes } from '../../src/shared/text/format-bytes';
import { writeTree } from '../blend/helpers/scene-folder';
import { SyntheticBlend } from '../blend/helpers/synthetic-blend';
import { FakeApi } from '../helpers/fake-api-server';
import { failWith } from '../helpers/hostile-server';
import { blendBytes, tempDir, writeScene } from '../helpers/scene-files';

const P = '/api/external/v1';
let api: FakeApi;
let journal: SubmissionJournal;
let scenePath: string;
let runner: SubmissionRunner | null = null;

beforeEach(async () => {
  api = await FakeApi.start();
  journal = new SubmissionJournal({ dataDir: await tempDir() });
  scenePath = await writeScene(await tempDir(), 'Shot 010.blend', blendBytes(50_000));
});
afterEach(async () => {
  runner?.close();
  runner = null;
  await api.server.close();
});

function terminalInput() {
  return Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
}

function setup(options: { signal?: AbortSignal; yes?: boolean; stdin?: CliIo['stdin']; stderr?: PassThrough } = {}) {
  const lines: string[] = [];
  const stdout = Object.assign(new PassThrough(), { isTTY: false });
  const stderr = options.stderr ?? new PassThrough();
  stderr.resume();
  const io = { stdout, stderr, stdin: options.stdin ?? new PassThrough(), env: {} } as unknown as CliIo;
  const display = new LiveDisplay({ write: (chunk: string) => lines.push(chunk) }, { live: false });
  runner = new SubmissionRunner({
    confirm: terminalPrompt(io).confirm,
    choose: terminalPrompt(io).choose,
    journal,
    display,
    signal: options.signal ?? new AbortController().signal,
    yes: options.yes ?? true,
    canPrompt: !(options.yes ?? true),
    defaultDownloadRoot: '/nowhere',
    nameWidth: 16,
  });
  const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-test', sleep: async () => undefined });
  return { runner, client, output: () => lines.join('') };
}

async function newRecord() {
  return (await recordForFile(journal, { filePath: scenePath, baseUrl: api.server.url, profileId: null })).record;
}

describe('SubmissionRunner dead ends', () => {
  it('ends a submission whose upload the storage refuses (413), without offering resume', async () => {
    api.refuseStorage(413, { code: 'too_large', message: 'Entity too large' });
    const { runner, client, output } = setup();
    const record = await newRecord();
    const outcome = await runner.start(record, client, { colorManagementPreset: 'default' });
    expect(outcome).toMatchObject({ state: 'error', ending: 'failed', error: { kind: 'transfer' } });
    expect((await journal.get(record.id))!.ending).toBe('failed');
    expect(await journal.listUnfinished()).toEqual([]);
    expect(output()).toContain('413');
    expect(output()).not.toContain('renderdrop resume');
  });

  it('ends a submission whose validation is refused (400) while the job is still created', async () => {
    api.server.next('POST', new RegExp(`^${P}/jobs/[^/]+/validate$`), failWith(400, 'validateBody: unknown key "frobnicate"'));
    const { runner, client, output } = setup();
    const record = await newRecord();
    const outcome = await runner.start(record, client, { colorManagementPreset: 'default' });
    expect(outcome).toMatchObject({ state: 'error', ending: 'failed', step: 'validate-requested', error: { kind: 'invalid-state' } });
    expect(await journal.listUnfinished()).toEqual([]);
    expect(output()).toContain('unknown key');
    expect(output()).not.toContain('renderdrop resume');
  });

  it('ends a submission the storage forbids (403, not expired)', async () => {
    api.refuseStorage(403, { code: 'AccessDenied', message: 'Bucket policy denies PutObject' });
    const { runner, client, output } = setup();
    const outcome = await runner.start(await newRecord(), client, { colorManagementPreset: 'default' });
    expect(outcome).toMatchObject({ state: 'error', ending: 'failed' });
    expect(output()).not.toContain('renderdrop resume');
  });

  it('keeps a submission resumable when its upload URLs keep expiring (403 expired)', async () => {
    api.refuseStorage(403, { code: 'AccessDenied', message: 'Request has expired' }, 4);
    const { runner, client, output } = setup();
    const record = await newRecord();
    const outcome = await runner.start(record, client, { colorManagementPreset: 'default' });
    expect(outcome).toMatchObject({ state: 'error', ending: null });
    expect((await journal.listUnfinished()).map((r) => r.id)).toEqual([record.id]);
    expect(output()).toContain('Saved: `renderdrop resume` continues it.');
  });
});

describe('SubmissionRunner confirmation', () => {
  it('Ctrl-C at the render question interrupts the whole command and keeps the submission resumable', async () => {
    const others = process.listeners('SIGINT');
    process.removeAllListeners('SIGINT');
    const interrupt = listenForInterrupt();
    try {
      const stdin = terminalInput();
      const stderr = new PassThrough();
      stderr.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('[y/N]')) stdin.write('\x03');
      });
      const { runner, client } = setup({ signal: interrupt.signal, yes: false, stdin, stderr });
      const record = await newRecord();
      const outcome = await runner.start(record, client, { colorManagementPreset: 'default' });
      expect(outcome).toMatchObject({ state: 'interrupted', step: 'validated' });
      expect(interrupt.signal.aborted).toBe(true);
      expect((await journal.listUnfinished()).map((r) => r.id)).toEqual([record.id]);
      expect(api.count('POST', new RegExp(`^${P}/jobs/[^/]+/render$`))).toBe(0);
    } finally {
      interrupt.dispose();
      others.forEach((listener) => process.on('SIGINT', listener));
    }
  });
});

describe('SubmissionRunner packing', () => {
  it('says what travels and names every missing file by its path on this disk before the upload, then maps the farm\'s warnings', async () => {
    const root = await tempDir('rd-runner-pack-');
    const blend = new SyntheticBlend();
    blend.addImage({ name: 'Grid', path: '//textures/grid.png' });
    blend.addImage({ name: 'Gone', path: '//textures/missing.png' });
    await writeTree(root, { 'shot.blend': blend.build(), 'textures/grid.png': 'png' });
    api.options.analysis = {
      scene: 'Scene',
      dependencies: [{ kind: 'image', name: 'missing.png', path: '//textures/missing.png', resolvedPath: 'textures/missing.png', packed: false, exists: false }],
      warnings: [{ code: 'missing-dependency', message: 'missing', path: '//textures/missing.png' }],
    };
    const { runner, client, output } = setup();
    const record = (await recordForFile(journal, { filePath: join(root, 'shot.blend'), baseUrl: api.server.url, profileId: null })).record;
    const outcome = await runner.start(record, client, { colorManagementPreset: 'default' });
    expect(outcome).toMatchObject({ handedOff: { step: 'render-requested' } });
    const text = output();
    const missingPath = join(root, 'textures', 'missing.png');
    expect(text).toContain(`shot.blend: 2 files, ${formatBytes(record.file.size + 3)} travel with the scene.`);
    expect(text).toContain(`shot.blend: 1 file it uses is missing; the farm renders without it:\n  ${missingPath} (image "Gone": not on this computer)`);
    expect(text).toMatch(/shot\.blend +packed +2 files, .* in (under 1 s|\d+ s)/);
    expect(text.indexOf(missingPath)).toBeLessThan(text.indexOf('uploaded'));
    expect(text).toContain(`! Missing image "missing.png": ${missingPath}. The farm renders without it.`);
    expect(text).not.toContain('//textures/missing.png');
  });
});
