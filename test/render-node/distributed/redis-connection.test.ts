import { describe, expect, it } from 'vitest';
import { checkRedis } from '../../../src/render-node/distributed/redis-connection';
import { checkRedisUrl, redactRedisUrl, urlHasPassword } from '../../../src/render-node/worker-access/redis-url';
import { workerFacingUrl } from '../../../src/render-node/worker-access/node-address';
import { freePort } from '../../helpers/redis';

describe('Redis addresses', () => {
  it('hides a password', () => {
    expect(redactRedisUrl('redis://:s3cret@10.0.0.5:6379/2')).toBe('redis://:***@10.0.0.5:6379/2');
    expect(redactRedisUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactRedisUrl('not a url')).not.toContain('not a url');
    expect(urlHasPassword('redis://user:pw@h:1')).toBe(true);
    expect(urlHasPassword('redis://h:1')).toBe(false);
  });

  it('checks the form of a Redis URL', () => {
    expect(checkRedisUrl('redis://10.0.0.5:6379')).toBeNull();
    expect(checkRedisUrl('rediss://redis.studio.lan:6380/3')).toBeNull();
    expect(checkRedisUrl('http://10.0.0.5:6379')).toMatch(/must start with redis:\/\//);
    expect(checkRedisUrl('10.0.0.5:6379')).toMatch(/redis:\/\/|not a URL/);
    expect(checkRedisUrl('redis://h:1/queue')).toMatch(/database number/);
  });

  it('fails at once with one line naming Redis when nothing listens', async () => {
    const url = `redis://:pw@127.0.0.1:${await freePort()}`;
    await expect(checkRedis({ url }, 2000)).rejects.toThrow('Redis at redis://:***@127.0.0.1:');
    await expect(checkRedis({ url }, 2000)).rejects.toThrow(/unreachable \(connection refused\): start it/);
  });
});

describe('the address workers reach the node at', () => {
  const interfaces = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }],
    eth0: [{ address: '192.168.1.20', family: 'IPv4', internal: false }],
  } as unknown as NodeJS.Dict<import('node:os').NetworkInterfaceInfo[]>;

  it('is the public URL when given, else the bound address, else a LAN address for a wildcard bind', () => {
    expect(workerFacingUrl({ publicUrl: 'http://render.lan:8787/', host: '0.0.0.0', port: 1 })).toBe('http://render.lan:8787');
    expect(workerFacingUrl({ host: '10.0.0.5', port: 8787 })).toBe('http://10.0.0.5:8787');
    expect(workerFacingUrl({ host: '0.0.0.0', port: 8787, interfaces })).toBe('http://192.168.1.20:8787');
    expect(workerFacingUrl({ host: '::1', port: 8787 })).toBe('http://[::1]:8787');
  });
});
