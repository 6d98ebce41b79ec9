import { mkdtemp, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { recordForFile } from '../../src/core/lifecycle/record-for-file';
import { FakeApi } from '../helpers/fake-api-server';
import { blendBytes } from '../helpers/scene-files';
import { runCliInProcess } from './helpers/run-cli-in-process';

let fake: FakeApi | null = null;
afterEach(async () => {
  await fake?.server.close();
  fake = null;
});

describe('renderdrop resume', () => {
  it('skips, with the reason, a submission another Renderdrop is continuing, and resumes the rest', async () => {
    fake = await FakeApi.start();
    const configDir = await mkdtemp(join(tmpdir(), 'rd-cli-busy-'));
    const journal = new SubmissionJournal({ dataDir: configDir });
    const record = async (name: string) => {
      const path = join(configDir, name);
      await writeFile(path, blendBytes(10_000));
      return (await recordForFile(journal, { filePath: path, baseUrl: fake!.server.url, profileId: null })).record;
    };
    const held = await record('held.blend');
    const free = await record('free.blend');
    const other = process.ppid;
    await writeFile(join(journal.dir, `${held.id}.lock`), JSON.stringify({ pid: other, host: hostname(), token: 'other000', since: '' }));
    const env = { RENDERDROP_CONFIG_DIR: configDir, RENDERDROP_BASE_URL: fake.server.url, RENDERDROP_API_KEY: 'RJ-test-key-123' };
    const run = await runCliInProcess(['resume', '--yes', '--json'], { env });
    const outcomes = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))).submissions as { submissionId: string; state: string; error: { kind: string; message: string } | null }[];
    const message = `This submission is being continued by another Renderdrop (process ${other}).`;
    expect(outcomes.find((o) => o.submissionId === held.id)).toMatchObject({ state: 'error', error: { kind: 'busy', message } });
    expect(outcomes.find((o) => o.submissionId === free.id)).toMatchObject({ state: 'completed', error: null });
    expect(run.stderr).toMatch(new RegExp(`held\\.blend\\s+skipped\\s+${message.replace(/[().]/g, '\\$&')}`));
    expect(run.stderr).not.toContain('`renderdrop resume` continues it');
    expect(fake.count('POST', '/api/external/v1/uploads')).toBe(1);
    expect((await journal.get(held.id))?.step).toBe('preflighted');
  });
});
