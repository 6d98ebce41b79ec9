import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveDisplay } from '../../src/cli/output/live-display';
import { SubmissionRunner } from '../../src/cli/submit/submission-runner';
import { ApiClient } from '../../src/core/api/api-client';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { recordForFile } from '../../src/core/lifecycle/record-for-file';
import { FakeApi } from '../helpers/fake-api-server';
import { blendBytes, tempDir, writeScene } from '../helpers/scene-files';

const P = '/api/external/v1';
const ANALYSIS = { scene: 'Scene', engine: 'CYCLES', frameStart: 1, frameEnd: 24, resolution: [1920, 1080], resolutionPercentage: 50, samples: 128, warnings: [] };
let api: FakeApi;
let journal: SubmissionJournal;
let scenePath: string;
const runners: SubmissionRunner[] = [];

beforeEach(async () => {
  api = await FakeApi.start({ analysis: ANALYSIS });
  journal = new SubmissionJournal({ dataDir: await tempDir() });
  scenePath = await writeScene(await tempDir(), 'shot.blend', blendBytes(20_000));
});
afterEach(async () => {
  for (const runner of runners.splice(0)) runner.close();
  await api.server.close();
});

function runner(validateOnly: boolean) {
  const lines: string[] = [];
  const made = new SubmissionRunner({
    confirm: async () => false,
    choose: async () => '',
    journal,
    display: new LiveDisplay({ write: (chunk: string) => lines.push(chunk) }, { live: false }),
    signal: new AbortController().signal,
    yes: !validateOnly,
    canPrompt: false,
    defaultDownloadRoot: '/nowhere',
    nameWidth: 12,
    validateOnly,
  });
  runners.push(made);
  return { runner: made, output: () => lines.join('') };
}

describe('submit --validate-only', () => {
  it('stops once validated with what the server found, and a later go-ahead renders that very job', async () => {
    const client = new ApiClient({ baseUrl: api.server.url, apiKey: 'RJ-test', sleep: async () => undefined });
    const { record } = await recordForFile(journal, { filePath: scenePath, baseUrl: api.server.url, profileId: null });
    const first = runner(true);
    const outcome = await first.runner.start(record, client, { colorManagementPreset: 'default' });
    expect(outcome).toMatchObject({ state: 'validated', step: 'validated', ending: null, error: null });
    if ('handedOff' in outcome) throw new Error('validate-only handed the job to the server');
    expect(outcome.review).toMatchObject({ jobId: outcome.jobId, frameCount: 24, problem: null, warnings: [] });
    expect(Object.fromEntries(outcome.review!.rows)).toMatchObject({ Engine: 'Cycles', Frames: '1-24 (24 frames)', Samples: '128' });
    expect(Object.fromEntries(outcome.review!.rows).Resolution).toMatch(/^1920 × 1080 at 50% = 960 × 540 px$/);
    expect(api.count('POST', new RegExp(`^${P}/jobs/[^/]+/render$`))).toBe(0);
    expect(first.output()).toMatch(/shot\.blend +validated +job [0-9a-f-]+; submit it again with --yes to render it/);
    expect((await journal.listUnfinished()).map((r) => r.id)).toEqual([record.id]);

    const again = runner(false);
    const started = await again.runner.start((await journal.get(record.id))!, client, { colorManagementPreset: 'default' });
    expect('handedOff' in started && started.handedOff.jobId).toBe(outcome.jobId);
    expect(api.count('POST', new RegExp(`^${P}/jobs/[^/]+/render$`))).toBe(1);
    expect(api.count('POST', new RegExp(`^${P}/jobs$`))).toBe(1);
  });
});
