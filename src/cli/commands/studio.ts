import type { Command } from 'commander';
import { parsePriorityOption } from '../options';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop priority <job> <n>` and `renderdrop workers [block|unblock]`: a studio's farm on a Renderdrop node. */
export function registerStudioCommands(program: Command, deps: CliDeps): void {
  program
    .command('priority')
    .argument('<id>', 'the job (its id, or the first characters of it)')
    .argument('<n>', 'the new priority, 0 to 100', parsePriorityOption)
    .description("Change the priority of a job waiting or rendering on a Renderdrop node: 0 (lowest) to 100 (highest), default 50. Frames not yet handed out follow it at once.")
    .action(cliAction(deps, lazyBody(async () => {
      const { setPriority } = await loadActions.studio();
      return (ctx, id: string, n: number) => setPriority(ctx, id, n);
    })));

  const workers = program
    .command('workers')
    .description("List the render workers of the active profile's Renderdrop node: name, host, tags, Blender, what each does, frames done, failures, last seen.")
    .option('--json', 'machine-readable output: the node\'s worker list with its blocks')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.studio()).showWorkers)));

  for (const block of [true, false]) {
    workers
      .command(`${block ? 'block' : 'unblock'} <worker>`)
      .description(block ? 'Keep a render worker from a job (--job) or from every job; the chunk it renders now finishes.' : 'Let a blocked render worker take a job (--job) or every job again.')
      .option('--job <id>', 'only for this job (default: every job)')
      .action(cliAction(deps, lazyBody(async () => {
        const { changeWorkerBlock } = await loadActions.studio();
        return (ctx, worker: string, opts: { job?: string }) => changeWorkerBlock(ctx, block, worker, opts);
      })));
  }
}
