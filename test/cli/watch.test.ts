import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { main } from '../../src/cli/index';
import { failWith, HostileServer, sendJson } from '../helpers/hostile-server';
import { tempDir } from '../helpers/scene-files';
import { testDeps, type TestDeps } from './helpers/test-deps';

const P = '/api/external/v1';
const JOB_ID = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';

let server: HostileServer;
let t: TestDeps;

function job(status: string) {
  return { id: JOB_ID, status, workspaceId: 'w', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
}

beforeEach(async () => {
  server = await HostileServer.start();
  server.route('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, [{ jobId: JOB_ID, completedFrames: 1, totalFrames: 10 }]));
  t = testDeps({ RENDERDROP_BASE_URL: server.url, RENDERDROP_API_KEY: 'RJ-watch-test', RENDERDROP_CONFIG_DIR: await tempDir() });
});
afterEach(async () => {
  await server.close();
});

const watch = (...args: string[]) => main(['node', 'renderdrop', 'watch', ...args], t.deps);

describe('renderdrop watch', () => {
  it('exits 1 with the message when the server rejects the key, instead of retrying forever', async () => {
    server.route('GET', `${P}/jobs/${JOB_ID}`, failWith(401, 'key revoked'));
    expect(await watch()).toBe(EXIT.failure);
    expect(t.stderr()).toContain('API key rejected (401: key revoked)');
    expect(t.stdout()).not.toContain('Trying again');
  });

  it('reports a fatal error as such in --json', async () => {
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: { ...job('rendering'), status: 'exploded' } }));
    expect(await watch('--json')).toBe(EXIT.failure);
    const events = t.stdout().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.at(-1)).toMatchObject({ type: 'error', fatal: true });
    expect(t.stderr()).toContain('does not follow the API');
  });

  it('keeps watching through a transient server error', async () => {
    server.next('GET', `${P}/jobs/${JOB_ID}`, failWith(503, 'busy'));
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: job('completed') }));
    expect(await watch()).toBe(EXIT.ok);
    expect(t.stdout()).toContain('Trying again');
    expect(t.stdout()).toContain('No more active jobs.');
  });

  it('follows one job with --json: status and progress events carry the render clock of the app\'s rule', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    let reads = 0;
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => {
      reads += 1;
      const status = reads > 1 ? 'completed' : 'rendering';
      sendJson(r, 200, { data: { ...job(status), timeline: [{ status: 'rendering', at: since }], progress: { completedFrames: status === 'completed' ? 10 : 1, totalFrames: 10 } } });
    });
    server.next('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, [{ jobId: JOB_ID, completedFrames: 1, totalFrames: 10 }]));
    server.next('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, []), 1000);
    expect(await watch(JOB_ID, '--json')).toBe(EXIT.ok);
    const events = t.stdout().trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    const rendering = events.find((e) => e.type === 'status' && e.status === 'rendering');
    expect(rendering?.clock).toMatchObject({ state: 'rendering', jobsAhead: null, renderingSince: since });
    expect(Math.abs(rendering!.clock.timeLeftSeconds - 540)).toBeLessThanOrEqual(2);
    expect(events.find((e) => e.type === 'status' && e.status === 'completed')).toMatchObject({ completedFrames: 10, totalFrames: 10, clock: { state: 'ended', timeLeftSeconds: null } });
    expect(events.at(-1)).toMatchObject({ type: 'idle' });
  });

  it('status --json carries the same render clock', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: { ...job('rendering'), timeline: [{ status: 'rendering', at: since }] } }));
    server.route('GET', `${P}/jobs/${JOB_ID}/progress`, (_q, r) => sendJson(r, 200, { jobId: JOB_ID, completedFrames: 1, totalFrames: 10 }));
    await main(['node', 'renderdrop', 'status', JOB_ID, '--json'], t.deps);
    const { clock } = JSON.parse(t.stdout());
    expect(clock).toMatchObject({ state: 'rendering', jobsAhead: null, renderingSince: since });
    expect(Math.abs(clock.timeLeftSeconds - 540)).toBeLessThanOrEqual(2);
  });
});
