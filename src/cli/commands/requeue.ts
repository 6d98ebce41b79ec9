import type { Command } from 'commander';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop requeue <job> --frames 5,9-12 | --failed`: render frames of a job again inside it. */
export function registerRequeueCommand(program: Command, deps: CliDeps): void {
  program
    .command('requeue <job>')
    .description('Render frames of a finished job (completed, failed or canceled) again inside the same job, keeping every other frame. A farm that cannot gets a new job of exactly those frames instead, sent from the scene on this computer.')
    .option('--frames <frames>', 'the frames to render again: 5,9-12 (frames and ranges of the job)')
    .option('--failed', 'render again every frame of the job that did not render')
    .option('--json', 'print the result as JSON on stdout')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.requeue()).requeue)));
}
