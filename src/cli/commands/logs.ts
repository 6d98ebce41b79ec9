import type { Command } from 'commander';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop logs <id>`: what Blender printed for a job. */
export function registerLogsCommand(program: Command, deps: CliDeps): void {
  program
    .command('logs <id>')
    .description("Print what Blender printed for a job: the scene's analysis and its render (a render worker's lines start with its name). Farms other than a Renderdrop node keep no log; for those, the job's failure reason is printed.")
    .option('-f, --follow', 'keep printing new lines until the job has finished')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.logs()).logs)));
}
