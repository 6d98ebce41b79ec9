import { z } from 'zod';
import { downloadsSchema, type Downloads, jobEnvelopeSchema, jobListSchema, jobSchema, progressListSchema, progressRecordSchema, type Job, type JobList, type JobStatus, type ProgressRecord, type RenderConfig, type ValidateRequest, uploadTargetSchema, type FileType, type UploadTarget, nodeWorkersSchema, type NodeWorkers, jobFramesSchema, type JobFrames, jobLogSchema, type JobLog } from '../../shared/api';
import { trimBaseUrl } from '../../shared/settings';
import { AbortError, ContractError, errorCode, NetworkError, RenderdropError } from '../errors';
import { abortableSleep, type Clock, fullJitterDelay, parseRetryAfter, type Sleep, systemClock, throwIfAborted } from '../util';
import { USER_AGENT } from '../version';
import { errorForStatus, readComplaint } from './http-errors';
import { sendJsonRequest } from './json-request';
import { parseJsonText, parseResponse } from './parse-response';
import { DEFAULT_RETRY_POLICY, mayHaveBeenApplied, type RetryInfo, type RetryPolicy, type RetrySafety } from './retry-policy';

/** How to reach a server and how to behave when it misbehaves. */
export interface ApiClientOptions {
  /** Server root, e.g. `https://farm.example.com` (the `/api/external/v1/` prefix is added). */
  baseUrl: string;
  apiKey: string;
  sleep?: Sleep;
  clock?: Clock;
  /** Source of jitter, in [0, 1). */
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Time limit of one attempt. */
  timeoutMs?: number;
  /** Told before every wait-and-retry (for logs and UI); never sees the key. */
  onRetry?: (info: RetryInfo) => void;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides of the client's retry policy for this call (the tracker handles 429 itself). */
  retry?: Partial<RetryPolicy>;
}

/** Query of `GET /jobs`. */
export interface ListJobsQuery {
  page?: number;
  pageSize?: number;
  status?: JobStatus;
}

/** Result of `POST /jobs/{id}/render`: the job, and whether the server treated it as a replay. */
export interface RenderResponse {
  job: Job;
  replayed: boolean;
}

interface Operation<S extends z.ZodType> {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  safety: RetrySafety;
  subject: string;
  action: string;
  schema: S;
  json?: unknown;
  searchParams?: Record<string, string | number>;
  /** What the parsed answer must also hold (it is about the job asked for): the offending field and why, or null. */
  expect?: (value: z.infer<S>) => AnswerMismatch | null;
}

/** A parsed answer that breaks the contract in a way its schema cannot see. */
interface AnswerMismatch {
  path: string;
  detail: string;
}

interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The API prefix every operation path is relative to. */
export const API_PREFIX = '/api/external/v1/';

/**
 * Typed client for every operation of the Render Job External API. Responses are checked against the
 * shared schemas; failures are RenderdropErrors; 429s (waiting as long as Retry-After asks, up to
 * `maxRetryAfterMs`), and for safe operations 5xx and network failures, are retried with backoff that
 * any call's signal can abort.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #sleep: Sleep;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #policy: RetryPolicy;
  readonly #onRetry: ((info: RetryInfo) => void) | undefined;

  constructor(options: ApiClientOptions) {
    this.baseUrl = trimBaseUrl(options.baseUrl);
    this.#apiKey = options.apiKey;
    this.#sleep = options.sleep ?? abortableSleep;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.#onRetry = options.onRetry;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** `POST /uploads`: a presigned target for one file. */
  async createUpload(request: { fileName: string; fileType: FileType }, options: CallOptions = {}): Promise<UploadTarget> {
    return this.#call(
      { name: 'POST /uploads', method: 'POST', path: 'uploads', safety: 'write', subject: 'the upload', action: `prepare the upload of ${request.fileName}`, schema: uploadTargetSchema, json: request },
      options,
    ).then((r) => r.value);
  }

  /** `POST /jobs`: a job (status `created`) from an uploaded slug. */
  async createJob(slug: string, options: CallOptions = {}): Promise<Job> {
    return this.#call(
      { name: 'POST /jobs', method: 'POST', path: 'jobs', safety: 'write', subject: `the upload ${slug}`, action: 'create the job', schema: jobSchema, json: { slug } },
      options,
    ).then((r) => r.value);
  }

  /** `GET /jobs`: one page of jobs, optionally of one status. */
  async listJobs(query: ListJobsQuery = {}, options: CallOptions = {}): Promise<JobList> {
    const searchParams: Record<string, string | number> = {};
    if (query.page !== undefined) searchParams.page = query.page;
    if (query.pageSize !== undefined) searchParams.pageSize = query.pageSize;
    if (query.status !== undefined) searchParams.status = query.status;
    return this.#call(
      { name: 'GET /jobs', method: 'GET', path: 'jobs', safety: 'read', subject: 'the job list', action: 'list jobs', schema: jobListSchema, searchParams },
      options,
    ).then((r) => r.value);
  }

  /** `GET /jobs/{id}`. */
  async getJob(id: string, options: CallOptions = {}): Promise<Job> {
    return this.#call(
      {
        name: 'GET /jobs/{id}',
        method: 'GET',
        path: `jobs/${segment(id)}`,
        safety: 'read',
        subject: `job ${id}`,
        action: `read job ${id}`,
        schema: jobEnvelopeSchema,
        expect: (value) => sameJob(id, value.data.id, 'data.id'),
      },
      options,
    ).then((r) => r.value.data);
  }

  /** `POST /jobs/{id}/validate`, with an optional validation configuration. */
  async validateJob(id: string, body: ValidateRequest | Record<string, unknown> = {}, options: CallOptions = {}): Promise<Job> {
    return this.#call(
      {
        name: 'POST /jobs/{id}/validate',
        method: 'POST',
        path: `jobs/${segment(id)}/validate`,
        safety: 'write',
        subject: `job ${id}`,
        action: `validate job ${id}`,
        schema: jobSchema,
        json: body,
        expect: (job) => sameJob(id, job.id, 'id'),
      },
      options,
    ).then((r) => r.value);
  }

  /** `POST /jobs/{id}/render`. Idempotent by the spec; `replayed` reports `X-Idempotent-Replay: true`. */
  async renderJob(id: string, requestedRenderConfig: RenderConfig, options: CallOptions = {}): Promise<RenderResponse> {
    const { value, headers } = await this.#call(
      {
        name: 'POST /jobs/{id}/render',
        method: 'POST',
        path: `jobs/${segment(id)}/render`,
        safety: 'idempotent',
        subject: `job ${id}`,
        action: `start the render of job ${id}`,
        schema: jobSchema,
        json: { requestedRenderConfig },
        expect: (job) => sameJob(id, job.id, 'id'),
      },
      options,
    );
    const replay = headers['x-idempotent-replay'];
    return { job: value, replayed: String(Array.isArray(replay) ? replay[0] : replay).toLowerCase() === 'true' };
  }

  /**
   * `POST /jobs/{id}/cancel`, without a body (the API defines none). The response body is not
   * specified; the job is returned when the server sends one about this job.
   */
  async cancelJob(id: string, options: CallOptions = {}): Promise<Job | null> {
    const { value } = await this.#call(
      { name: 'POST /jobs/{id}/cancel', method: 'POST', path: `jobs/${segment(id)}/cancel`, safety: 'write', subject: `job ${id}`, action: `cancel job ${id}`, schema: z.unknown() },
      options,
    );
    const direct = jobSchema.safeParse(value);
    const wrapped = jobEnvelopeSchema.safeParse(value);
    const job = direct.success ? direct.data : wrapped.success ? wrapped.data.data : null;
    return job?.id === id ? job : null;
  }

  /** `GET /jobs/{id}/progress`. */
  async getProgress(id: string, options: CallOptions = {}): Promise<ProgressRecord> {
    return this.#call(
      {
        name: 'GET /jobs/{id}/progress',
        method: 'GET',
        path: `jobs/${segment(id)}/progress`,
        safety: 'read',
        subject: `job ${id}`,
        action: `read the progress of job ${id}`,
        schema: progressRecordSchema,
        expect: (progress) => sameJob(id, progress.jobId, 'jobId'),
      },
      options,
    ).then((r) => r.value);
  }

  /** `GET /jobs/progress`: progress of every active job (empty when nothing runs). */
  async getAllProgress(options: CallOptions = {}): Promise<ProgressRecord[]> {
    return this.#call(
      { name: 'GET /jobs/progress', method: 'GET', path: 'jobs/progress', safety: 'read', subject: 'job progress', action: 'read job progress', schema: progressListSchema },
      options,
    ).then((r) => r.value);
  }

  /** `GET /jobs/{id}/downloads`: signed output URLs (empty arrays until output is ready). */
  async getDownloads(id: string, options: CallOptions = {}): Promise<Downloads> {
    return this.#call(
      { name: 'GET /jobs/{id}/downloads', method: 'GET', path: `jobs/${segment(id)}/downloads`, safety: 'read', subject: `job ${id}`, action: `get the downloads of job ${id}`, schema: downloadsSchema },
      options,
    ).then((r) => r.value);
  }

  /** `GET /node/workers`: a Renderdrop node's render workers (an extension; other servers answer 404). */
  async getNodeWorkers(options: CallOptions = {}): Promise<NodeWorkers> {
    return this.#call(
      { name: 'GET /node/workers', method: 'GET', path: 'node/workers', safety: 'read', subject: 'the render workers', action: 'list the render workers', schema: nodeWorkersSchema },
      options,
    ).then((r) => r.value);
  }

  /** `GET /node/jobs/{id}/frames`: the frames a Renderdrop node has rendered for a job so far (an extension; other servers answer 404). */
  async getJobFrames(id: string, options: CallOptions = {}): Promise<JobFrames> {
    return this.#call(
      { name: 'GET /node/jobs/{id}/frames', method: 'GET', path: `node/jobs/${segment(id)}/frames`, safety: 'read', subject: `job ${id}`, action: `list the frames of job ${id}`, schema: jobFramesSchema },
      options,
    ).then((r) => r.value);
  }

  /** `GET /node/jobs/{id}/log`: what Blender printed for a job, from byte `since` (a Renderdrop node's extension; other servers answer 404). */
  async getJobLog(id: string, since = 0, options: CallOptions = {}): Promise<JobLog> {
    return this.#call(
      {
        name: 'GET /node/jobs/{id}/log',
        method: 'GET',
        path: `node/jobs/${segment(id)}/log`,
        safety: 'read',
        subject: `job ${id}`,
        action: `read the log of job ${id}`,
        schema: jobLogSchema,
        searchParams: { since },
        expect: (log) => sameJob(id, log.jobId, 'jobId'),
      },
      options,
    ).then((r) => r.value);
  }

  /** A call to one of a Renderdrop node's extensions (`node/...`); other servers answer 404. See `studio-client.ts`. */
  async callNode<S extends z.ZodType>(op: { name: string; method: 'GET' | 'POST'; path: string; safety: RetrySafety; subject: string; action: string; schema: S; json?: unknown }, options: CallOptions = {}): Promise<z.infer<S>> {
    return this.#call(op, options).then((r) => r.value);
  }

  async #call<S extends z.ZodType>(op: Operation<S>, options: CallOptions): Promise<{ value: z.infer<S>; headers: RawResponse['headers'] }> {
    const policy = { ...this.#policy, ...options.retry };
    const signal = options.signal;
    let rateLimitedTries = 0;
    let transientTries = 0;
    for (;;) {
      throwIfAborted(signal);
      let response: RawResponse;
      try {
        response = await this.#send(op, signal);
      } catch (error) {
        if (signal?.aborted) throw new AbortError();
        const networkError = this.#networkError(op, error);
        const safe = op.safety !== 'write' || !networkError.maybeApplied;
        if (safe && transientTries < policy.transientRetries) {
          await this.#wait(op, ++transientTries, fullJitterDelay(transientTries - 1, policy, this.#random), 'network', undefined, signal);
          continue;
        }
        throw networkError;
      }
      const status = response.statusCode;
      if (status === 429) {
        const header = response.headers['retry-after'];
        const now = this.#clock.now();
        const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, now);
        const tooLong = retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs;
        if (!tooLong && rateLimitedTries < policy.rateLimitRetries) {
          const delay = retryAfterMs ?? fullJitterDelay(rateLimitedTries, policy, this.#random);
          await this.#wait(op, ++rateLimitedTries, delay, 'rate-limited', status, signal);
          continue;
        }
        throw errorForStatus(status, {}, { subject: op.subject, action: op.action, ...(retryAfterMs !== null ? { retryAfterMs, now } : {}) });
      }
      if (status >= 500 && op.safety !== 'write' && transientTries < policy.transientRetries) {
        await this.#wait(op, ++transientTries, fullJitterDelay(transientTries - 1, policy, this.#random), 'server-error', status, signal);
        continue;
      }
      if (status < 200 || status >= 300) {
        const complaint = readComplaint(safeJson(response.body));
        if (complaint.message) complaint.message = this.#redact(complaint.message);
        throw errorForStatus(status, complaint, { subject: op.subject, action: op.action });
      }
      const body = parseJsonText(op.name, response.body, status);
      const value = parseResponse(op.name, op.schema, body, status);
      const mismatch = op.expect?.(value) ?? null;
      if (mismatch) throw new ContractError(op.name, mismatch.path, mismatch.detail, status);
      return { value, headers: response.headers };
    }
  }

  async #send(op: Operation<z.ZodType>, signal: AbortSignal | undefined): Promise<RawResponse> {
    const url = new URL(`${this.baseUrl}${API_PREFIX}${op.path}`);
    for (const [name, value] of Object.entries(op.searchParams ?? {})) url.searchParams.set(name, String(value));
    return await sendJsonRequest({
      method: op.method,
      url,
      headers: { authorization: `Bearer ${this.#apiKey}`, 'user-agent': USER_AGENT, accept: 'application/json' },
      ...(op.json !== undefined ? { json: op.json } : {}),
      ...(signal ? { signal } : {}),
      timeoutMs: this.#timeoutMs,
    });
  }

  async #wait(op: Operation<z.ZodType>, attempt: number, delayMs: number, reason: RetryInfo['reason'], status: number | undefined, signal: AbortSignal | undefined) {
    this.#onRetry?.({ operation: op.name, attempt, delayMs, reason, ...(status !== undefined ? { status } : {}) });
    await this.#sleep(delayMs, signal);
  }

  #networkError(op: Operation<z.ZodType>, error: unknown): NetworkError {
    if (error instanceof RenderdropError) throw error;
    const code = errorCode(error);
    const maybeApplied = mayHaveBeenApplied(code);
    const what = code === 'ETIMEDOUT' ? 'timed out' : `failed (${code ?? 'connection error'})`;
    const advice = maybeApplied && op.safety === 'write' ? ' It may have reached the server; check before repeating it.' : ' Check the network and the server address.';
    return new NetworkError(`Could not reach ${this.baseUrl} to ${op.action}: the connection ${what}.${advice}`, {
      maybeApplied,
      ...(code !== undefined ? { code } : {}),
    });
  }

  #redact(text: string): string {
    return this.#apiKey.length >= 4 ? text.split(this.#apiKey).join('[redacted]') : text;
  }
}

/** A mismatch when an answer about job `asked` is about job `answered` instead. */
function sameJob(asked: string, answered: string, path: string): AnswerMismatch | null {
  return answered === asked ? null : { path, detail: `asked for job ${asked}, answered job ${answered}` };
}

function segment(id: string): string {
  return encodeURIComponent(id);
}

function safeJson(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return text;
  }
}

