import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SubmissionJournal } from '../../src/core/journal/submission-journal';
import { recordForFile } from '../../src/core/lifecycle/record-for-file';
import { runCli } from '../helpers/cli';
import { FakeApi } from '../helpers/fake-api-server';
import { blendBytes } from '../helpers/scene-files';

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
    const lock = await new SubmissionJournal({ dataDir: configDir }).lock(held.id);
    try {
      const env = { RENDERDROP_CONFIG_DIR: configDir, RENDERDROP_BASE_URL: fake.server.url, RENDERDROP_API_KEY: 'RJ-test-key-123' };
      const run = await runCli(['resume', '--yes', '--json'], { env, timeoutMs: 60_000 });
      const outcomes = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))).submissions as { submissionId: string; state: string; error: { kind: string; message: string } | null }[];
      const message = `This submission is being continued by another Renderdrop (process ${process.pid}).`;
      expect(outcomes.find((o) => o.submissionId === held.id)).toMatchObject({ state: 'error', error: { kind: 'busy', message } });
      expect(outcomes.find((o) => o.submissionId === free.id)).toMatchObject({ state: 'completed', error: null });
      expect(run.stderr).toMatch(new RegExp(`held\\.blend\\s+skipped\\s+${message.replace(/[().]/g, '\\$&')}`));
      expect(run.stderr).not.toContain('`renderdrop resume` continues it');
      expect(fake.count('POST', '/api/external/v1/uploads')).toBe(1);
      expect((await journal.get(held.id))?.step).toBe('preflighted');
    } finally {
      lock.release();
    }
  });
});
