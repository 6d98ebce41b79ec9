import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchPreview } from '../../../src/host/jobs/fetch-preview';
import { HostileServer, serveFile } from '../../helpers/hostile-server';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let server: HostileServer;

beforeEach(async () => {
  server = await HostileServer.start();
});

afterEach(async () => {
  await server.close();
});

describe('fetchPreview', () => {
  it('answers an image as a data URL', async () => {
    server.route('GET', '/preview.png', serveFile(PNG, { contentType: 'image/png' }));
    expect(await fetchPreview(`${server.url}/preview.png`, 1024)).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('does not follow a redirect', async () => {
    server.route('GET', '/moved', (_req, res) => {
      res.writeHead(302, { location: `${server.url}/preview.png`, 'content-length': 0 });
      res.end();
    });
    server.route('GET', '/preview.png', serveFile(PNG, { contentType: 'image/png' }));
    expect(await fetchPreview(`${server.url}/moved`, 1024)).toBeNull();
    expect(server.requestsTo('GET', '/preview.png')).toHaveLength(0);
  });

  it('refuses a declared length over the limit without waiting for the body', async () => {
    server.route('GET', '/huge.png', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': 100 * 1024 * 1024 });
      res.write(PNG);
    });
    expect(await fetchPreview(`${server.url}/huge.png`, 1024, 5_000)).toBeNull();
  });

  it('stops reading a body that grows past the limit', async () => {
    let sent = 0;
    server.route('GET', '/endless.png', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    expect(await fetchPreview(`${server.url}/endless.png`, 256 * 1024, 5_000)).toBeNull();
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a body that is not an image, or says nothing about its type', async () => {
    server.route('GET', '/page', serveFile(Buffer.from('<script>1</script>'), { contentType: 'text/html' }));
    server.route('GET', '/untyped', (_req, res) => {
      res.writeHead(200, { 'content-length': PNG.length });
      res.end(PNG);
    });
    expect(await fetchPreview(`${server.url}/page`, 1024)).toBeNull();
    expect(await fetchPreview(`${server.url}/untyped`, 1024)).toBeNull();
  });

  it('refuses addresses that are not http(s)', async () => {
    expect(await fetchPreview(`data:image/png;base64,${PNG.toString('base64')}`, 1024)).toBeNull();
    expect(await fetchPreview('not a url', 1024)).toBeNull();
  });
});
