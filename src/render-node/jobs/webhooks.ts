import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { type Db, parseRow } from '../store';
import { z } from 'zod';

/** Where and how the node announces finished renders. */
export interface WebhookConfig {
  url: string;
  secret: string;
  /** Time-out of one delivery attempt (the service waits about 7 s). */
  timeoutMs?: number;
  /** Delays before each retry; the number of entries is the number of retries. */
  retryDelaysMs?: number[];
}

/** Body of the `onRenderComplete` event. */
export interface RenderCompletePayload {
  event: 'onRenderComplete';
  status: 'completed';
  jobId: string;
  workspaceId: string;
  completedAt: string;
  outputs?: { frames: string[] };
}

/** Headers for a signed delivery: hex HMAC-SHA256 of `"{timestamp}.{body}"` and the timestamp in Unix seconds. */
export function signWebhook(secret: string, body: string, timestamp: number): Record<string, string> {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return {
    'Content-Type': 'application/json',
    'X-Renderjuice-Signature': signature,
    'X-Renderjuice-Timestamp': String(timestamp),
  };
}

const DEFAULT_RETRY_DELAYS = [5_000, 30_000, 120_000, 600_000, 1_800_000];

const deliveryRowSchema = z.object({ id: z.string(), job_id: z.string(), url: z.string(), body: z.string(), attempts: z.number().int() });
type DeliveryRow = z.infer<typeof deliveryRowSchema>;

const deliveryStateSchema = z.object({
  attempts: z.number().int(),
  deliveredAt: z.string().nullable(),
  gaveUpAt: z.string().nullable(),
  lastError: z.string().nullable(),
});

/**
 * Delivers webhook events from a persistent outbox: a delivery is stored first, then attempted in
 * the background with retries, so it never blocks a job and survives a restart.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private inFlight = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private readonly retryDelays: number[];
  private readonly timeoutMs: number;

  constructor(
    private readonly db: Db,
    private readonly config: WebhookConfig | null,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.retryDelays = config?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS;
    this.timeoutMs = config?.timeoutMs ?? 7_000;
  }

  /** Queue the `onRenderComplete` event of a job (no-op when no webhook is configured). */
  enqueue(payload: RenderCompletePayload): void {
    if (!this.config) return;
    this.db
      .prepare('INSERT INTO webhook_deliveries (id, job_id, url, body, next_attempt_at) VALUES (?, ?, ?, ?, ?)')
      .run(randomUUID(), payload.jobId, this.config.url, JSON.stringify(payload), this.now().toISOString());
    this.poke();
  }

  start(): void {
    if (!this.config || this.timer) return;
    this.timer = setInterval(() => this.poke(), 500);
    this.timer.unref();
    this.poke();
  }

  /** Stop delivering; attempts under way are abandoned uncounted (they run again after a restart). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const t of this.retryTimers) clearTimeout(t);
    this.retryTimers.clear();
    this.stopping.abort();
    await Promise.allSettled(this.inFlight.values());
  }

  /** Attempt every due delivery not already in flight. */
  poke(): void {
    if (!this.config || this.stopped) return;
    const due = this.db
      .prepare(
        'SELECT id, job_id, url, body, attempts FROM webhook_deliveries WHERE delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= ?',
      )
      .all(this.now().toISOString())
      .map((row) => parseRow('webhook_deliveries', deliveryRowSchema, row));
    for (const row of due) {
      if (this.inFlight.has(row.id)) continue;
      const attempt = this.attempt(row)
        .catch((err: unknown) => this.log.error({ jobId: row.job_id, err }, 'webhook delivery state could not be saved; it is tried again later'))
        .finally(() => this.inFlight.delete(row.id));
      this.inFlight.set(row.id, attempt);
    }
  }

  private async attempt(row: DeliveryRow): Promise<void> {
    const timestamp = Math.floor(this.now().getTime() / 1000);
    let error: string | null = null;
    try {
      const res = await fetch(row.url, {
        method: 'POST',
        headers: signWebhook(this.config!.secret, row.body, timestamp),
        body: row.body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.stopping.signal]),
      });
      await res.body?.cancel();
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      error = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : err instanceof Error ? err.message : String(err);
    }
    if (error !== null && this.stopped) return;
    const attempts = row.attempts + 1;
    const at = this.now();
    if (error === null) {
      this.db.prepare('UPDATE webhook_deliveries SET attempts = ?, delivered_at = ?, last_error = NULL WHERE id = ?').run(attempts, at.toISOString(), row.id);
      this.log.info({ jobId: row.job_id, attempts }, 'webhook delivered');
      return;
    }
    const delay = this.retryDelays[attempts - 1];
    if (delay === undefined) {
      this.db.prepare('UPDATE webhook_deliveries SET attempts = ?, gave_up_at = ?, last_error = ? WHERE id = ?').run(attempts, at.toISOString(), error, row.id);
      this.log.warn({ jobId: row.job_id, attempts, error }, 'webhook delivery failed; giving up');
      return;
    }
    const next = new Date(at.getTime() + delay).toISOString();
    this.db.prepare('UPDATE webhook_deliveries SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ?').run(attempts, next, error, row.id);
    this.log.warn({ jobId: row.job_id, attempts, error, retryInMs: delay }, 'webhook delivery failed; will retry');
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.retryTimers.delete(t);
      this.poke();
    }, delay + 5);
    t.unref();
    this.retryTimers.add(t);
  }

  /** Delivery state of a job's events (for tests and diagnostics). */
  deliveries(jobId: string): z.infer<typeof deliveryStateSchema>[] {
    return this.db
      .prepare('SELECT attempts, delivered_at AS deliveredAt, gave_up_at AS gaveUpAt, last_error AS lastError FROM webhook_deliveries WHERE job_id = ?')
      .all(jobId)
      .map((row) => parseRow('webhook_deliveries', deliveryStateSchema, row));
  }
}
