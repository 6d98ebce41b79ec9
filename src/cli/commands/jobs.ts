import type { Command } from 'commander';
import { parsePage, parsePageSize, parseStatusOption } from '../options';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop jobs`, `renderdrop status <id>` and `renderdrop cancel <id>`. */
export function registerJobCommands(program: Command, deps: CliDeps): void {
  program
    .command('jobs')
    .description('List jobs on the server, newest first.')
    .option('--status <status>', 'only jobs in this status (created, validating, validated, booting, rendering, finalizing, completed, failed, canceled, ...)', parseStatusOption)
    .option('--page <n>', 'page to show (from 1)', parsePage)
    .option('--page-size <n>', 'jobs per page (1-100, default 20)', parsePageSize)
    .option('--json', 'machine-readable output: the server\'s list with its pagination')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.jobs()).listJobs)));

  program
    .command('status <id>')
    .description('Show one job: status, frames, settings, why it failed, its warnings. The id may be shortened to its first characters.')
    .option('--json', 'machine-readable output: { job, progress, warnings: [{ code, message }] }')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.jobs()).showJob)));

  program
    .command('cancel <id>')
    .description('Cancel a job that is validating or rendering; frames already rendered stay downloadable.')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.jobs()).cancelJobCommand)));
}
