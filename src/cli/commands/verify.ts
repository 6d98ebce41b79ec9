import type { Command } from 'commander';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop verify <id>`: check a job's download folder frame by frame; `--fix` renders what is missing. */
export function registerVerifyCommand(program: Command, deps: CliDeps): void {
  program
    .command('verify <id>')
    .description("Check that a job's folder holds every frame of the job, whole; with --fix, render the missing and unusable frames again (same scene, same settings) into it.")
    .option('--dir <folder>', "the folder to check (default: where the job was downloaded, else ./<scene>-<job id>)")
    .option('--fix', 'render the frames that are missing or unusable and download them into the folder')
    .option('--json', 'print the result as JSON on stdout (progress goes to stderr)')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.verify()).verify)));
}
