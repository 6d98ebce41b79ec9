import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Job, JobStatus } from '../../src/shared/api/job';
import { HostileServer, readBody, readJson, sendJson, serveFile } from './hostile-server';

const P = '/api/external/v1';

interface ApiJob {
  job: Job;
  slug: string;
  completed: number;
  total: number;
  reads: number;
  validateBodies: unknown[];
  renderBodies: unknown[];
}

/** Knobs a test turns to make the fake API misbehave. */
export interface FakeApiOptions {
  /** Frames each job renders. */
  frames?: number;
  /** Put the slug into `sceneFile` (lets clients find a job whose creation answer was lost). */
  slugInSceneFile?: boolean;
  /** Answer a second creation from the same slug with 409 and the existing job id. */
  conflictOnDuplicateSlug?: boolean;
  /** Leave `sceneFile` empty (nothing to recognise a job by). */
  bareSceneFile?: boolean;
  /** Validation ends in failure (with `failedReason` when given). */
  failValidation?: boolean;
  failedReason?: { name: string; type: string; message: string };
  /** The analysis a validated job carries (default: a scene named Scene without warnings). */
  analysis?: unknown;
  /** Keep the bytes of each upload (in `uploads`, as `data`). */
  keepBodies?: boolean;
}

/**
 * A small implementation of the Render Job API on a HostileServer: presigned PUTs to the same server,
 * jobs that validate after one read, render one frame per progress poll, and serve their outputs.
 * Tests can still script misbehaviour on `server` with one-shot handlers.
 */
export class FakeApi {
  readonly jobs = new Map<string, ApiJob>();
  readonly uploads = new Map<string, { fileName: string; fileType: string; bytes: number | null; sha256: string | null; data?: Buffer }>();
  /** The next POST /jobs creates the job, then drops the connection before answering. */
  dropNextCreateAnswer = false;

  constructor(
    readonly server: HostileServer,
    readonly options: FakeApiOptions = {},
  ) {
    server.route('POST', `${P}/uploads`, (req, res) => this.#createUpload(req, res));
    server.route('PUT', /^\/storage\//, (req, res) => this.#put(req, res));
    server.route('POST', `${P}/jobs`, (req, res) => this.#createJob(req, res));
    server.route('GET', `${P}/jobs`, (_req, res) => this.#list(res));
    server.route('GET', `${P}/jobs/progress`, (_req, res) => this.#progress(res));
    server.route('GET', new RegExp(`^${P}/jobs/[^/]+$`), (req, res) => this.#get(req, res));
    server.route('POST', new RegExp(`^${P}/jobs/[^/]+/validate$`), (req, res) => this.#validate(req, res));
    server.route('POST', new RegExp(`^${P}/jobs/[^/]+/render$`), (req, res) => this.#render(req, res));
    server.route('GET', new RegExp(`^${P}/jobs/[^/]+/progress$`), (req, res) => {
      const entry = this.#entry(req)!;
      sendJson(res, 200, { jobId: entry.job.id, completedFrames: entry.completed, totalFrames: entry.total });
    });
    server.route('GET', new RegExp(`^${P}/jobs/[^/]+/downloads$`), (req, res) => this.#downloads(req, res));
    server.route('GET', /^\/files\//, (req, res) => serveFile(this.frameContent(req.url!.split('/').pop()!))(req, res));
  }

  static async start(options: FakeApiOptions = {}): Promise<FakeApi> {
    return new FakeApi(await HostileServer.start(), options);
  }

  /** Content of a rendered frame (deterministic per name). */
  frameContent(name: string): Buffer {
    return Buffer.alloc(2000 + name.length * 100, name);
  }

  /** Answers the next `times` upload PUTs with `status` and an API error body, after reading them. */
  refuseStorage(status: number, error: { code: string; message: string }, times = 1): void {
    this.server.next(
      'PUT',
      /^\/storage\//,
      async (req, res) => {
        await readBody(req, 0);
        sendJson(res, status, { error });
      },
      times,
    );
  }

  count(method: string, path: string | RegExp): number {
    return this.server.requestsTo(method, path).length;
  }

  async #createUpload(req: IncomingMessage, res: ServerResponse) {
    const body = (await readJson(req)) as { fileName: string; fileType: string };
    const slug = `slug-${randomUUID()}`;
    this.uploads.set(slug, { fileName: body.fileName, fileType: body.fileType, bytes: null, sha256: null });
    sendJson(res, 201, { uploadUrl: `${this.server.url}/storage/${slug}?sig=1`, slug, expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
  }

  async #put(req: IncomingMessage, res: ServerResponse) {
    const slug = req.url!.split('?')[0]!.split('/').pop()!;
    if (req.headers.authorization || req.headers['transfer-encoding']) {
      req.resume();
      sendJson(res, 400, { error: { code: 'bad_put', message: 'no auth, no chunked' } });
      return;
    }
    const hash = createHash('sha256');
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      if (this.options.keepBodies) chunks.push(chunk);
    });
    const { length } = await readBody(req, 0);
    if (length !== Number(req.headers['content-length'])) {
      sendJson(res, 400, { error: { code: 'length', message: 'length mismatch' } });
      return;
    }
    const upload = this.uploads.get(slug)!;
    upload.bytes = length;
    upload.sha256 = hash.digest('hex');
    if (this.options.keepBodies) upload.data = Buffer.concat(chunks);
    res.writeHead(200, { 'content-length': 0 });
    res.end();
  }

  async #createJob(req: IncomingMessage, res: ServerResponse) {
    const { slug } = (await readJson(req)) as { slug: string };
    const upload = this.uploads.get(slug);
    if (!upload || upload.bytes === null) {
      sendJson(res, 400, { error: { code: 'upload_incomplete', message: 'The upload has not completed' } });
      return;
    }
    const existing = [...this.jobs.values()].find((j) => j.slug === slug);
    if (existing && this.options.conflictOnDuplicateSlug) {
      sendJson(res, 409, { error: { code: 'slug_used', message: 'A job already exists for this upload', jobId: existing.job.id } });
      return;
    }
    const now = new Date().toISOString();
    const job: Job = {
      id: randomUUID(),
      status: 'created',
      workspaceId: 'w-1',
      createdAt: now,
      updatedAt: now,
      sceneFile: this.options.bareSceneFile ? null : { fileName: upload.fileName, ...(this.options.slugInSceneFile ? { slug } : {}) },
    };
    this.jobs.set(job.id, { job, slug, completed: 0, total: this.options.frames ?? 3, reads: 0, validateBodies: [], renderBodies: [] });
    if (this.dropNextCreateAnswer) {
      this.dropNextCreateAnswer = false;
      req.socket.destroy();
      return;
    }
    sendJson(res, 201, job);
  }

  #list(res: ServerResponse) {
    const jobs = [...this.jobs.values()].map((j) => j.job).reverse();
    sendJson(res, 200, { jobs, pagination: { page: 1, pageSize: 100, total: jobs.length, totalPages: 1 } });
  }

  #progress(res: ServerResponse) {
    const out = [];
    for (const entry of this.jobs.values()) {
      this.#advance(entry);
      if (entry.job.status === 'rendering') {
        entry.completed = Math.min(entry.total, entry.completed + 1);
        out.push({ jobId: entry.job.id, completedFrames: entry.completed, totalFrames: entry.total });
        if (entry.completed === entry.total) this.#set(entry, 'finalizing');
      }
    }
    sendJson(res, 200, out);
  }

  #get(req: IncomingMessage, res: ServerResponse) {
    const entry = this.#entry(req);
    if (!entry) return sendJson(res, 404, { error: { code: 'not_found', message: 'Job not found' } });
    entry.reads++;
    this.#advance(entry);
    if (entry.job.status === 'rendering') {
      entry.completed = Math.min(entry.total, entry.completed + 1);
      if (entry.completed === entry.total) this.#set(entry, 'finalizing');
    }
    sendJson(res, 200, { data: entry.job });
  }

  #advance(entry: ApiJob) {
    const s = entry.job.status;
    if (s === 'validating') {
      if (this.options.failValidation) this.#set(entry, 'failed', { failedReason: this.options.failedReason ?? { name: 'SceneUnreadable', type: 'scene', message: 'Cannot open the scene' } });
      else this.#set(entry, 'validated', { analysis: this.options.analysis ?? { scene: 'Scene', warnings: [] } });
    } else if (s === 'booting') this.#set(entry, 'rendering');
    else if (s === 'finalizing') this.#set(entry, 'completed');
  }

  #set(entry: ApiJob, status: JobStatus, extra: Partial<Job> = {}) {
    entry.job = { ...entry.job, ...extra, status, updatedAt: new Date().toISOString() };
  }

  async #validate(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req);
    const entry = this.#entry(req)!;
    entry.validateBodies.push(body);
    if (entry.job.status !== 'created') return sendJson(res, 400, { error: { code: 'invalid_state', message: `Job is ${entry.job.status}` } });
    this.#set(entry, 'validating');
    sendJson(res, 200, entry.job);
  }

  async #render(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req);
    const entry = this.#entry(req)!;
    entry.renderBodies.push(body);
    if (entry.job.status !== 'validated') return sendJson(res, 200, entry.job, { 'x-idempotent-replay': 'true' });
    this.#set(entry, 'booting', { requestedConfig: (body as { requestedRenderConfig: unknown }).requestedRenderConfig });
    sendJson(res, 200, entry.job);
  }

  #downloads(req: IncomingMessage, res: ServerResponse) {
    const entry = this.#entry(req)!;
    const ready = entry.job.status === 'completed';
    const names = ready ? Array.from({ length: entry.total }, (_, i) => `frame_${String(i + 1).padStart(4, '0')}.png`) : [];
    sendJson(res, 200, {
      frames: names.map((n) => `${this.server.url}/files/${entry.job.id}/${n}`),
      compositeNodes: [],
      frameOutputs: names.map((n) => ({ url: `${this.server.url}/files/${entry.job.id}/${n}`, fileName: n, view: null, legacy: false, relativePath: null, compositeNodeName: null })),
      compositeNodeOutputs: [],
      transforms: {},
    });
  }

  #entry(req: IncomingMessage): ApiJob | undefined {
    const id = req.url!.split('?')[0]!.split('/')[5]!;
    return this.jobs.get(decodeURIComponent(id));
  }
}
