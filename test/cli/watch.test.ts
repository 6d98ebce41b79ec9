import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes';
import { main } from '../../src/cli/index';
import { failWith, HostileServer, sendJson } from '../helpers/hostile-server';
import { tempDir } from '../helpers/scene-files';

const P = '/api/external/v1';
const JOB_ID = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';
const ENV = ['RENDERDROP_BASE_URL', 'RENDERDROP_API_KEY', 'RENDERDROP_CONFIG_DIR'] as const;

let server: HostileServer;
let saved: Record<string, string | undefined>;
let stdout: string;
let stderr: string;

function job(status: string) {
  return { id: JOB_ID, status, workspaceId: 'w', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
}

beforeEach(async () => {
  server = await HostileServer.start();
  server.route('GET', `${P}/jobs/progress`, (_q, r) => sendJson(r, 200, [{ jobId: JOB_ID, completedFrames: 1, totalFrames: 10 }]));
  saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
  process.env.RENDERDROP_BASE_URL = server.url;
  process.env.RENDERDROP_API_KEY = 'RJ-watch-test';
  process.env.RENDERDROP_CONFIG_DIR = await tempDir();
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
});
afterEach(async () => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await server.close();
});

describe('renderdrop watch', () => {
  it('exits 1 with the message when the server rejects the key, instead of retrying forever', async () => {
    server.route('GET', `${P}/jobs/${JOB_ID}`, failWith(401, 'key revoked'));
    expect(await main(['node', 'renderdrop', 'watch'])).toBe(EXIT.failure);
    expect(stderr).toContain('API key rejected (401: key revoked)');
    expect(stdout).not.toContain('Trying again');
  });

  it('reports a fatal error as such in --json', async () => {
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: { ...job('rendering'), status: 'exploded' } }));
    expect(await main(['node', 'renderdrop', 'watch', '--json'])).toBe(EXIT.failure);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.at(-1)).toMatchObject({ type: 'error', fatal: true });
    expect(stderr).toContain('does not follow the API');
  });

  it('keeps watching through a transient server error', async () => {
    server.next('GET', `${P}/jobs/${JOB_ID}`, failWith(503, 'busy'));
    server.route('GET', `${P}/jobs/${JOB_ID}`, (_q, r) => sendJson(r, 200, { data: job('completed') }));
    expect(await main(['node', 'renderdrop', 'watch'])).toBe(EXIT.ok);
    expect(stdout).toContain('Trying again');
    expect(stdout).toContain('No more active jobs.');
  });
});
