import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../src/render-node/store/db';
import { WebhookDispatcher, signWebhook, type RenderCompletePayload, type WebhookConfig } from '../../../src/render-node/jobs/webhooks';

const SECRET = 'whsec_test_5e1f0c';
const log = pino({ level: 'silent' });

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Receiver {
  url: string;
  requests: Received[];
  close: () => Promise<void>;
}

/** A webhook endpoint on 127.0.0.1; `respond` gets the 1-based request number and may leave the request hanging. */
async function startReceiver(respond: (n: number, res: ServerResponse, req: Received) => void): Promise<Receiver> {
  const requests: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(received);
      respond(requests.length, res, received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/render`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const answer = (status: number) => (_n: number, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end(status < 300 ? 'ok' : 'nope');
};

/** What a receiver does: recompute the HMAC over the raw body and compare in constant time. */
function signatureValid(secret: string, headers: IncomingHttpHeaders, rawBody: Buffer): boolean {
  const timestamp = headers['x-renderjuice-timestamp'];
  const signature = headers['x-renderjuice-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function payload(jobId: string): RenderCompletePayload {
  return {
    event: 'onRenderComplete',
    status: 'completed',
    jobId,
    workspaceId: '9b2d6a52-5c1e-4f0e-9d0a-0c8a3e4b7f11',
    completedAt: '2025-03-01T12:00:00.000Z',
    outputs: { frames: [`http://127.0.0.1:1/storage/jobs/${jobId}/frame_0001.png?expires=1&sig=ab`] },
  };
}

const waitFor = <T>(fn: () => T) => vi.waitFor(fn, { timeout: 10_000, interval: 10 });

let dir: string;
let db: Db;
let receivers: Receiver[];
let dispatchers: WebhookDispatcher[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-hooks-'));
  db = openDatabase(dir);
  receivers = [];
  dispatchers = [];
});

afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(dispatchers.map((d) => d.stop()));
  for (const r of receivers) await r.close();
  if (db.open) db.close();
  await rm(dir, { recursive: true, force: true });
});

async function receiver(respond: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(respond);
  receivers.push(r);
  return r;
}

function dispatcher(config: WebhookConfig | null, now?: () => Date, on: Db = db): WebhookDispatcher {
  const d = new WebhookDispatcher(on, config, log, now);
  dispatchers.push(d);
  return d;
}

describe('signWebhook', () => {
  it('signs "{timestamp}.{body}" with hex HMAC-SHA256 and sends the timestamp and JSON type', () => {
    const body = JSON.stringify(payload('job-1'));
    const headers = signWebhook(SECRET, body, 1_740_830_400);
    expect(Object.keys(headers).sort()).toEqual(['Content-Type', 'X-Renderjuice-Signature', 'X-Renderjuice-Timestamp']);
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-Renderjuice-Timestamp']).toBe('1740830400');
    expect(headers['X-Renderjuice-Signature']).toBe(createHmac('sha256', SECRET).update(`1740830400.${body}`).digest('hex'));
    expect(headers['X-Renderjuice-Signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes the signature with the body, the timestamp or the secret', () => {
    const body = '{"a":1}';
    const base = signWebhook(SECRET, body, 100)['X-Renderjuice-Signature'];
    expect(signWebhook(SECRET, '{"a":2}', 100)['X-Renderjuice-Signature']).not.toBe(base);
    expect(signWebhook(SECRET, body, 101)['X-Renderjuice-Signature']).not.toBe(base);
    expect(signWebhook('other', body, 100)['X-Renderjuice-Signature']).not.toBe(base);
    expect(signWebhook(SECRET, body, 100)['X-Renderjuice-Signature']).toBe(base);
  });
});

describe('WebhookDispatcher', () => {
  it('delivers a signed event the receiver can verify from the raw body', async () => {
    const r = await receiver(answer(200));
    const at = new Date('2025-03-01T12:00:05.750Z');
    const d = dispatcher({ url: r.url, secret: SECRET }, () => at);
    const event = payload('job-ok');
    d.enqueue(event);
    await waitFor(() => expect(d.deliveries('job-ok')[0]?.deliveredAt).not.toBeNull());

    expect(d.deliveries('job-ok')).toEqual([{ attempts: 1, deliveredAt: at.toISOString(), gaveUpAt: null, lastError: null }]);
    expect(r.requests).toHaveLength(1);
    const req = r.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hooks/render');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-renderjuice-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(signatureValid(SECRET, req.headers, req.body)).toBe(true);
    expect(signatureValid('wrong secret', req.headers, req.body)).toBe(false);
    expect(signatureValid(SECRET, req.headers, Buffer.from(req.body.toString().replace('job-ok', 'job-xx')))).toBe(false);
    expect(JSON.parse(req.body.toString('utf8'))).toEqual(event);
  });

  it('retries after a 500 and ends delivered on the second attempt', async () => {
    const r = await receiver((n, res) => answer(n === 1 ? 500 : 200)(n, res));
    const d = dispatcher({ url: r.url, secret: SECRET, retryDelaysMs: [50, 50] });
    d.enqueue(payload('job-retry'));
    await waitFor(() => expect(d.deliveries('job-retry')[0]?.deliveredAt).not.toBeNull());

    expect(d.deliveries('job-retry')).toEqual([expect.objectContaining({ attempts: 2, gaveUpAt: null, lastError: null })]);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.body.equals(r.requests[0]!.body)).toBe(true);
    for (const req of r.requests) expect(signatureValid(SECRET, req.headers, req.body)).toBe(true);
  });

  it('counts no answer within the time-out as a failure and retries', async () => {
    const r = await receiver((n, res) => {
      if (n > 1) answer(200)(n, res);
    });
    const d = dispatcher({ url: r.url, secret: SECRET, timeoutMs: 200, retryDelaysMs: [50] });
    d.enqueue(payload('job-slow'));
    await waitFor(() => expect(d.deliveries('job-slow')[0]?.deliveredAt).not.toBeNull());

    expect(d.deliveries('job-slow')[0]?.attempts).toBe(2);
    expect(r.requests).toHaveLength(2);
  });

  it('gives up on a receiver that never answers, saying why', async () => {
    const r = await receiver(() => undefined);
    const d = dispatcher({ url: r.url, secret: SECRET, timeoutMs: 200, retryDelaysMs: [50] });
    d.enqueue(payload('job-silent'));
    await waitFor(() => expect(d.deliveries('job-silent')[0]?.gaveUpAt).not.toBeNull());

    expect(d.deliveries('job-silent')).toEqual([
      expect.objectContaining({ attempts: 2, deliveredAt: null, lastError: 'no answer within 200 ms' }),
    ]);
    expect(r.requests).toHaveLength(2);
  });

  it('stops without waiting out a slow receiver, leaving the delivery for the next start', async () => {
    const r = await receiver(() => undefined);
    const d = dispatcher({ url: r.url, secret: SECRET, timeoutMs: 7000 });
    d.enqueue(payload('job-stopping'));
    await waitFor(() => expect(r.requests).toHaveLength(1));
    await d.stop();
    db.close();
    const reopened = openDatabase(dir);
    const next = dispatcher({ url: r.url, secret: SECRET }, undefined, reopened);
    expect(next.deliveries('job-stopping')).toEqual([expect.objectContaining({ attempts: 0, deliveredAt: null, gaveUpAt: null })]);
    reopened.close();
  });

  it('gives up after the last retry and sends nothing more', async () => {
    const r = await receiver(answer(500));
    const d = dispatcher({ url: r.url, secret: SECRET, retryDelaysMs: [20, 20] });
    d.enqueue(payload('job-broken'));
    await waitFor(() => expect(d.deliveries('job-broken')[0]?.gaveUpAt).not.toBeNull());

    expect(d.deliveries('job-broken')).toEqual([expect.objectContaining({ attempts: 3, deliveredAt: null, lastError: 'HTTP 500' })]);
    expect(r.requests).toHaveLength(3);
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    d.poke();
    d.start();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('makes exactly one attempt when there are no retries', async () => {
    const r = await receiver(answer(404));
    const d = dispatcher({ url: r.url, secret: SECRET, retryDelaysMs: [] });
    d.enqueue(payload('job-once'));
    await waitFor(() => expect(d.deliveries('job-once')[0]?.gaveUpAt).not.toBeNull());
    expect(d.deliveries('job-once')).toEqual([expect.objectContaining({ attempts: 1, lastError: 'HTTP 404' })]);
    expect(r.requests).toHaveLength(1);
  });

  it('counts a refused connection as a failure', async () => {
    const r = await startReceiver(answer(200));
    await r.close();
    const d = dispatcher({ url: r.url, secret: SECRET, retryDelaysMs: [] });
    d.enqueue(payload('job-refused'));
    await waitFor(() => expect(d.deliveries('job-refused')[0]?.gaveUpAt).not.toBeNull());
    const [row] = d.deliveries('job-refused');
    expect(row?.deliveredAt).toBeNull();
    expect(row?.lastError).toBeTruthy();
  });

  it('counts a redirect as a failure instead of following it', async () => {
    const r = await receiver((_n, res, req) => {
      if (req.url === '/hooks/render') {
        res.writeHead(302, { location: '/moved' });
        res.end();
      } else answer(200)(_n, res);
    });
    const d = dispatcher({ url: r.url, secret: SECRET, retryDelaysMs: [] });
    d.enqueue(payload('job-redirect'));
    await waitFor(() => {
      const [row] = d.deliveries('job-redirect');
      expect(row?.deliveredAt ?? row?.gaveUpAt ?? null).not.toBeNull();
    });
    expect(d.deliveries('job-redirect')).toEqual([expect.objectContaining({ deliveredAt: null, lastError: 'HTTP 302' })]);
    expect(r.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['POST /hooks/render']);
  });

  it('never attempts the same delivery twice at once', async () => {
    let release: (() => void) | null = null;
    const r = await receiver((_n, res) => {
      release = () => answer(200)(_n, res);
    });
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const d = dispatcher({ url: r.url, secret: SECRET });
    d.enqueue(payload('job-once-at-a-time'));
    d.poke();
    d.poke();
    d.start();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(release).not.toBeNull());
    release!();
    await waitFor(() => expect(d.deliveries('job-once-at-a-time')[0]?.deliveredAt).not.toBeNull());
    expect(d.deliveries('job-once-at-a-time')[0]?.attempts).toBe(1);
    expect(r.requests).toHaveLength(1);
  });

  it('keeps the deliveries of each job apart', async () => {
    const r = await receiver(answer(200));
    const d = dispatcher({ url: r.url, secret: SECRET });
    d.enqueue(payload('job-a'));
    d.enqueue(payload('job-b'));
    await waitFor(() => {
      expect(d.deliveries('job-a')[0]?.deliveredAt).not.toBeNull();
      expect(d.deliveries('job-b')[0]?.deliveredAt).not.toBeNull();
    });
    expect(d.deliveries('job-a')).toHaveLength(1);
    expect(d.deliveries('job-none')).toEqual([]);
    expect(r.requests.map((q) => JSON.parse(q.body.toString()).jobId).sort()).toEqual(['job-a', 'job-b']);
  });

  it('sends nothing and stores nothing without a webhook configured', async () => {
    const r = await receiver(answer(200));
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const d = dispatcher(null);
    d.enqueue(payload('job-quiet'));
    d.poke();
    d.start();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(d.deliveries('job-quiet')).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get()).toEqual({ n: 0 });
    expect(r.requests).toHaveLength(0);
  });

  it('keeps a pending delivery in the outbox and sends it from a new dispatcher after a restart', async () => {
    const r = await receiver((n, res) => answer(n === 1 ? 503 : 200)(n, res));
    const config: WebhookConfig = { url: r.url, secret: SECRET, retryDelaysMs: [30] };
    const t0 = new Date('2025-03-01T12:00:00.000Z');
    const first = dispatcher(config, () => t0);
    const firstPokes = vi.spyOn(first, 'poke');
    first.enqueue(payload('job-outbox'));
    await waitFor(() => expect(first.deliveries('job-outbox')[0]?.lastError).toBe('HTTP 503'));
    await waitFor(() => expect(firstPokes).toHaveBeenCalledTimes(2));
    expect(r.requests).toHaveLength(1);
    await first.stop();
    db.close();

    db = openDatabase(dir);
    const later = new Date(t0.getTime() + 120_000);
    const second = dispatcher(config, () => later, db);
    expect(second.deliveries('job-outbox')).toEqual([expect.objectContaining({ attempts: 1, deliveredAt: null, gaveUpAt: null })]);
    second.start();
    await waitFor(() => expect(second.deliveries('job-outbox')[0]?.deliveredAt).toBe(later.toISOString()));

    expect(second.deliveries('job-outbox')[0]?.attempts).toBe(2);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1]!.body.equals(r.requests[0]!.body)).toBe(true);
    expect(r.requests[1]!.headers['x-renderjuice-timestamp']).toBe(String(Math.floor(later.getTime() / 1000)));
    expect(signatureValid(SECRET, r.requests[1]!.headers, r.requests[1]!.body)).toBe(true);
  });

  it('sends a retry only once its time has come on the dispatcher clock', async () => {
    const r = await receiver(answer(500));
    let now = new Date('2025-03-01T12:00:00.000Z');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const d = dispatcher({ url: r.url, secret: SECRET, retryDelaysMs: [30] }, () => now);
    const pokes = vi.spyOn(d, 'poke');
    d.enqueue(payload('job-wait'));
    await waitFor(() => expect(d.deliveries('job-wait')[0]?.attempts).toBe(1));
    await waitFor(() => expect(pokes).toHaveBeenCalledTimes(2));
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    now = new Date(now.getTime() + 29);
    d.poke();
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    now = new Date(now.getTime() + 1);
    d.poke();
    expect(fetchSpy).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(d.deliveries('job-wait')[0]?.gaveUpAt).not.toBeNull());
  });
});
