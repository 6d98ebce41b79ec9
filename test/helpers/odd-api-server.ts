import type { IncomingMessage, ServerResponse } from 'node:http';
import { HostileServer, readBody, sendJson } from './hostile-server';

/** A job id the odd servers talk about, and another one they answer with instead. */
export const ODD_JOB_ID = '0b8f6f4e-1a2b-4c3d-8e9f-001122334455';
export const OTHER_JOB_ID = '99999999-8888-4777-8666-555555555555';

/**
 * Ways a server can answer that the API does not allow (or allows but no client expects), each applied
 * to every request of the API and its storage.
 */
export const ODD_ANSWERS = {
  /** A web page instead of JSON. */
  html: (_req, res) => send(res, 200, '<html><body>Welcome to nginx!</body></html>', 'text/html'),
  /** 200 with no body at all. */
  empty: (_req, res) => send(res, 200, '', 'application/json'),
  /** 200 with JSON `null`. */
  null: (_req, res) => sendJson(res, 200, 'null'),
  /** JSON of the wrong kind: an object where a list belongs and the other way round. */
  'wrong-kind': (req, res) => sendJson(res, 200, pathOf(req).endsWith('/progress') || pathOf(req).endsWith('/jobs') ? { jobs: 'all of them' } : [1, 2, 3]),
  /** Well-formed answers about another job than the one asked for, and progress of a job that is not the one asked for. */
  'other-ids': (req, res) => answerAboutAnotherJob(req, res),
  /** Well-formed answers whose URLs are not URLs and whose expiry is long past. */
  'bad-urls': (req, res) => answerWithBadUrls(req, res),
  /** Errors without the error body: plain text, a huge body, a status the API never uses. */
  'odd-errors': (req, res) => (req.method === 'GET' ? send(res, 404, 'x'.repeat(200_000), 'text/plain') : send(res, 418, 'I am a teapot', 'text/plain')),
  /** Fields of the right names with values of the wrong types (status unknown, numbers as text). */
  'wrong-values': (req, res) => answerWithWrongValues(req, res),
} satisfies Record<string, (req: IncomingMessage, res: ServerResponse) => void | Promise<void>>;

export type OddAnswer = keyof typeof ODD_ANSWERS;

/** A server on 127.0.0.1 that answers every request in the way `answer` names (after reading its body). */
export async function startOddServer(answer: OddAnswer): Promise<HostileServer> {
  const server = await HostileServer.start();
  for (const method of ['GET', 'POST', 'PUT']) {
    server.route(method, /.*/, async (req, res) => {
      await readBody(req, 0);
      await ODD_ANSWERS[answer](req, res);
    });
  }
  return server;
}

function send(res: ServerResponse, status: number, body: string, type: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0]!;
}

function job(id: string, status = 'completed') {
  return { id, status, workspaceId: 'w-1', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', sceneFile: { fileName: 'shot.blend' } };
}

function host(req: IncomingMessage): string {
  return `http://${req.headers.host ?? '127.0.0.1'}`;
}

function answerAboutAnotherJob(req: IncomingMessage, res: ServerResponse): void {
  const path = pathOf(req);
  if (req.method === 'POST' && path.endsWith('/uploads')) {
    return sendJson(res, 201, { uploadUrl: `${host(req)}/storage/s?sig=1`, slug: 's', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
  }
  if (req.method === 'PUT') return send(res, 200, '', 'text/plain');
  if (path.endsWith('/jobs/progress')) return sendJson(res, 200, [{ jobId: OTHER_JOB_ID, completedFrames: 1, totalFrames: 3 }]);
  if (path.endsWith('/progress')) return sendJson(res, 200, { jobId: OTHER_JOB_ID, completedFrames: 1, totalFrames: 3 });
  if (path.endsWith('/downloads')) return sendJson(res, 200, { frames: [], compositeNodes: [], frameOutputs: [], compositeNodeOutputs: [], transforms: {} });
  if (req.method === 'GET' && path.endsWith('/jobs')) {
    return sendJson(res, 200, { jobs: [job(ODD_JOB_ID, 'rendering')], pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 } });
  }
  if (req.method === 'GET') return sendJson(res, 200, { data: job(path.endsWith(OTHER_JOB_ID) ? ODD_JOB_ID : OTHER_JOB_ID, 'rendering') });
  return sendJson(res, req.method === 'POST' && path.endsWith('/jobs') ? 201 : 200, job(OTHER_JOB_ID, 'created'));
}

function answerWithBadUrls(req: IncomingMessage, res: ServerResponse): void {
  const path = pathOf(req);
  if (req.method === 'POST' && path.endsWith('/uploads')) return sendJson(res, 201, { uploadUrl: 'storage/s?sig=1', slug: 's', expiresAt: '1999-12-31T23:59:59Z' });
  if (path.endsWith('/downloads')) {
    return sendJson(res, 200, { frames: ['frame 1.png'], compositeNodes: [], frameOutputs: [{ url: 'javascript:alert(1)', fileName: 'a.png' }], compositeNodeOutputs: [], transforms: {} });
  }
  if (path.endsWith('/jobs/progress')) return sendJson(res, 200, []);
  if (req.method === 'GET' && path.endsWith('/jobs')) {
    return sendJson(res, 200, { jobs: [job(ODD_JOB_ID)], pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 } });
  }
  if (path.endsWith('/progress')) return sendJson(res, 200, { jobId: ODD_JOB_ID, completedFrames: 3, totalFrames: 3 });
  if (req.method === 'GET') return sendJson(res, 200, { data: job(ODD_JOB_ID) });
  return sendJson(res, 400, { error: { code: 'invalid_state', message: 'Job is completed' } });
}

function answerWithWrongValues(req: IncomingMessage, res: ServerResponse): void {
  const path = pathOf(req);
  const odd = { ...job(ODD_JOB_ID), status: 'exploded', createdAt: 42, progress: { completedFrames: 'three' } };
  if (req.method === 'POST' && path.endsWith('/uploads')) return sendJson(res, 201, { uploadUrl: 7, slug: null, expiresAt: 'soon' });
  if (path.endsWith('/jobs/progress')) return sendJson(res, 200, [{ jobId: ODD_JOB_ID, completedFrames: -1, totalFrames: 'many' }]);
  if (path.endsWith('/progress')) return sendJson(res, 200, { jobId: ODD_JOB_ID, completedFrames: 'x' });
  if (path.endsWith('/downloads')) return sendJson(res, 200, { frames: 'all', compositeNodes: null });
  if (req.method === 'GET' && path.endsWith('/jobs')) return sendJson(res, 200, { jobs: [odd], pagination: { page: '1', total: -3 } });
  if (req.method === 'GET') return sendJson(res, 200, { data: odd });
  return sendJson(res, 200, odd);
}
