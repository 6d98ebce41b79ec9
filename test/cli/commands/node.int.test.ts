import { describe, expect, it } from 'vitest';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startServeProcess } from '../../helpers/cli';
import { requireBlender } from '../../helpers/blender';
import { isPublicBind } from '../../../src/cli/commands/node';

const blenderPath = requireBlender();

describe('renderdrop node keys', () => {
  it('create prints the key alone on the last line; list and revoke never show it', async () => {
    const data = join(await mkdtemp(join(tmpdir(), 'rd-keys-')), 'data');
    const created = await runCli(['node', 'keys', 'create', '--data', data, '--name', 'pipeline']);
    expect(created.code).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const key = lines[lines.length - 1]!;
    expect(key).toMatch(/^RJ-[A-Za-z0-9_-]{40,}$/);

    const listed = await runCli(['node', 'keys', 'list', '--data', data, '--json']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key);
    const keys = JSON.parse(listed.stdout);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ name: 'pipeline', revokedAt: null });

    const revoked = await runCli(['node', 'keys', 'revoke', 'pipeline', '--data', data]);
    expect(revoked.code).toBe(0);
    const after = JSON.parse((await runCli(['node', 'keys', 'list', '--data', data, '--json'])).stdout);
    expect(after[0].revokedAt).not.toBeNull();
    const again = await runCli(['node', 'keys', 'revoke', 'pipeline', '--data', data]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No active key');
  });

  it('create without --name is a usage error', async () => {
    const res = await runCli(['node', 'keys', 'create', '--data', join(tmpdir(), 'rd-unused')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--name');
  });
});

describe('renderdrop node serve', () => {
  it('says where it listens, warns on a public bind, and stops cleanly on SIGINT', async () => {
    const data = join(await mkdtemp(join(tmpdir(), 'rd-serve-')), 'data');
    const served = await startServeProcess(['--host', '0.0.0.0', '--port', '0', '--data', data, ...(blenderPath ? ['--blender', blenderPath] : [])]);
    expect(served.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(served.output()).toContain('warning: 0.0.0.0 is reachable from other machines');
    const port = new URL(served.url).port;
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const unauth = await fetch(`http://127.0.0.1:${port}/api/external/v1/jobs`);
    expect(unauth.status).toBe(401);
    served.child.kill('SIGINT');
    const code = await new Promise((r) => served.child.once('exit', (c) => r(c)));
    expect(code).toBe(0);
    expect(served.output()).toContain('shutting down');
  });

  it('rejects a bad port as a usage error', async () => {
    const res = await runCli(['node', 'serve', '--port', 'eighty']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--port');
  });

  it('classifies bind addresses', () => {
    expect(isPublicBind('127.0.0.1')).toBe(false);
    expect(isPublicBind('127.0.0.2')).toBe(false);
    expect(isPublicBind('::1')).toBe(false);
    expect(isPublicBind('localhost')).toBe(false);
    expect(isPublicBind('0.0.0.0')).toBe(true);
    expect(isPublicBind('::')).toBe(true);
    expect(isPublicBind('192.168.1.20')).toBe(true);
  });
});

describe('renderdrop node doctor', () => {
  it('fails clearly for a Blender path that does not exist', async () => {
    const res = await runCli(['node', 'doctor', '--blender', '/nowhere/blender']);
    expect(res.code).toBe(1);
    expect(res.stdout + res.stderr).toContain('/nowhere/blender');
  });

  it.skipIf(!blenderPath)('reports the Blender found, its version and capabilities', async () => {
    const res = await runCli(['node', 'doctor', '--json', '--blender', blenderPath!]);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.ok).toBe(true);
    expect(report.found.version).toMatch(/^\d+\.\d+/);
    expect(report.found.cyclesDevices).toContain('CPU');
    expect(typeof report.found.openImageDenoise).toBe('boolean');
  });
});
