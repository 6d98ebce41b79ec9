import { describe, expect, it } from 'vitest';
import { CliContext } from '../../src/cli/session/cli-context';
import { testDeps } from './helpers/test-deps';

function context() {
  const ctx = new CliContext(testDeps().deps);
  const notices: string[] = [];
  ctx.notice = (message) => notices.push(message);
  return { ctx, notices };
}

describe('CliContext retry notices', () => {
  it('says the server rate limits and when the request is retried, however long the wait', () => {
    const { ctx, notices } = context();
    ctx.reportRetry({ operation: 'GET /jobs/progress', attempt: 1, delayMs: 600_000, reason: 'rate-limited', status: 429 });
    ctx.reportRetry({ operation: 'GET /jobs/{id}', attempt: 2, delayMs: 4_000, reason: 'server-error', status: 503 });
    ctx.reportRetry({ operation: 'GET /jobs/{id}', attempt: 1, delayMs: 300, reason: 'network' });
    expect(notices).toEqual([
      'Rate limited by the server (429); retrying GET /jobs/progress in 10m 00s.',
      'The server failed (503); retrying GET /jobs/{id} in 4s.',
    ]);
  });
});
