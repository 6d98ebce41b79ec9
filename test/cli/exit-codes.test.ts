import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CommandFailedError, UsageError } from '../../src/cli/cli-errors';
import { combineExitCodes, exitCodeFor } from '../../src/cli/exit-code-for';
import { EXIT } from '../../src/cli/exit-codes';
import { errorMessage } from '../../src/cli/session/cli-action';
import { outcomeExitCode, outcomeOfFile } from '../../src/cli/submit/submission-outcome';
import {
  AbortError,
  AuthError,
  ConfigError,
  ContractError,
  InvalidStateError,
  JournalError,
  NetworkError,
  NotFoundError,
  PreflightError,
  RateLimitedError,
  ServerError,
  TransferError,
} from '../../src/core/errors';

describe('exit codes', () => {
  it('map every core error to failure, aborts to interrupted', () => {
    const failures = [
      new AuthError('a', { status: 401 }),
      new NotFoundError('n', { status: 404 }),
      new InvalidStateError('i', { status: 400 }),
      new RateLimitedError('r'),
      new ServerError('s', { status: 500 }),
      new NetworkError('x', { maybeApplied: false }),
      new ContractError('GET /jobs', '', 'bad'),
      new PreflightError('empty', 'e'),
      new TransferError('t'),
      new ConfigError('c'),
      new JournalError('j'),
      new CommandFailedError('f'),
      new Error('boom'),
    ];
    for (const error of failures) expect(exitCodeFor(error), error.name).toBe(EXIT.failure);
    expect(exitCodeFor(new AbortError())).toBe(EXIT.interrupted);
    expect(exitCodeFor(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe(EXIT.interrupted);
  });

  it('map command-line mistakes to usage', () => {
    expect(exitCodeFor(new UsageError('u'))).toBe(EXIT.usage);
    expect(exitCodeFor(new CommanderError(1, 'commander.invalidArgument', 'bad'))).toBe(EXIT.usage);
    expect(exitCodeFor(new CommanderError(0, 'commander.helpDisplayed', ''))).toBe(EXIT.ok);
  });

  it('combine several results: interrupted, then usage, then failure, then job failed', () => {
    expect(combineExitCodes([])).toBe(EXIT.ok);
    expect(combineExitCodes([EXIT.ok, EXIT.jobFailed])).toBe(EXIT.jobFailed);
    expect(combineExitCodes([EXIT.jobFailed, EXIT.failure, EXIT.ok])).toBe(EXIT.failure);
    expect(combineExitCodes([EXIT.failure, EXIT.interrupted])).toBe(EXIT.interrupted);
    expect(combineExitCodes([EXIT.ok, EXIT.framesMissing])).toBe(EXIT.framesMissing);
    expect(combineExitCodes([EXIT.framesMissing, EXIT.jobFailed])).toBe(EXIT.jobFailed);
  });

  it('give each submission outcome its code', () => {
    const outcome = (state: Parameters<typeof outcomeOfFile>[2], kind = 'network') => outcomeOfFile('/a.blend', 'a.blend', state, { kind, message: 'm' });
    expect(outcomeExitCode(outcome('downloaded'))).toBe(EXIT.ok);
    expect(outcomeExitCode(outcome('rendering'))).toBe(EXIT.ok);
    expect(outcomeExitCode(outcome('declined'))).toBe(EXIT.ok);
    expect(outcomeExitCode(outcome('failed'))).toBe(EXIT.jobFailed);
    expect(outcomeExitCode(outcome('canceled'))).toBe(EXIT.jobFailed);
    expect(outcomeExitCode(outcome('error'))).toBe(EXIT.failure);
    expect(outcomeExitCode(outcome('error', 'usage'))).toBe(EXIT.usage);
    expect(outcomeExitCode(outcome('interrupted'))).toBe(EXIT.interrupted);
  });

  it('show core messages as they are and foreign ones as unexpected', () => {
    expect(errorMessage(new AuthError('API key rejected (401).'))).toBe('API key rejected (401). Store a new key with: renderdrop login');
    expect(errorMessage(new UsageError('Add --yes.'))).toBe('Add --yes.');
    expect(errorMessage(new Error('boom'))).toBe('Unexpected error: boom');
    expect(errorMessage(new AbortError('Upload stopped.'))).toBe('Upload stopped.');
  });
});
