import type { Command } from 'commander';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop download <id>`: a job's outputs into a folder, resumable. */
export function registerDownloadCommand(program: Command, deps: CliDeps): void {
  program
    .command('download <id>')
    .description('Download the outputs of a finished job into <dir>/<scene>-<job id>/; of a failed or canceled job, the frames it rendered. With --follow, frames of a job still rendering arrive as they are rendered. Interrupted downloads resume; complete files are skipped.')
    .option('--dir <dir>', 'folder to create the job\'s folder in (default: the folder a submit chose, else ~/Renderdrop)')
    .option('--follow', 'for a job still rendering: bring each frame into the folder as soon as it is rendered, then complete the download when the job ends')
    .option('--json', 'print the result as JSON on stdout')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.download()).download)));
}
