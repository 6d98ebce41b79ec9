import type { Command } from 'commander';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop watch`: live progress of every active job. */
export function registerWatchCommand(program: Command, deps: CliDeps): void {
  program
    .command('watch [job]')
    .description('Show live progress of all active jobs (or of one job) until none is active. Ctrl-C stops watching; the jobs go on.')
    .option('--json', 'one JSON object per line and event: status, progress (each with the render clock), error, idle')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.watch()).watch)));
}
