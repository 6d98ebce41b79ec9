import type { Command } from 'commander';
import { resolve } from 'node:path';
import { BlendError } from '../../blend/reader';
import { needsPacking, writeBundle } from '../../blend/pack';
import { traceScene } from '../../blend/trace';
import { AbortError, isAbort } from '../../core/errors';
import { countOf, formatBytes } from '../../shared/text';
import { CommandFailedError } from '../cli-errors';
import { formatPackPlan } from '../output/format-pack-plan';
import { formatPack } from '../output/format-progress';
import { LiveDisplay } from '../output/live-display';
import { safeText } from '../output/safe-text';
import type { CliDeps } from '../cli-deps';
import { cliAction } from '../session/cli-action';
import type { CliContext } from '../session/cli-context';

/** `renderdrop pack <file.blend>`: what a scene needs from disk, and optionally its bundle. */
export function registerPackCommand(program: Command, deps: CliDeps): void {
  program
    .command('pack <scene>')
    .description(
      'List every file a .blend needs (textures, libraries, sounds, caches...): found, missing or packed, their sizes and where each goes in a bundle. With --out, write the bundle: a zip with the scene at its top that renders the same elsewhere. The scene and its files are only read.',
    )
    .option('--out <bundle.zip>', 'write the bundle to this zip')
    .option('--json', 'print the plan (and the bundle written) as JSON on stdout')
    .action(cliAction(deps, pack));
}

async function pack(ctx: CliContext, scene: string, opts: { out?: string; json?: boolean }): Promise<void> {
  const interrupt = ctx.listenForInterrupt();
  const progressStream = opts.json ? ctx.io.stderr : ctx.io.stdout;
  const display = new LiveDisplay(progressStream, { live: Boolean(progressStream.isTTY) });
  try {
    const plan = await traceScene(resolve(scene), { signal: interrupt.signal }).catch(failure);
    if (!opts.json) ctx.io.stdout.write(`${formatPackPlan(plan).map((line) => safeText(line)).join('\n')}\n`);
    let written: { path: string; bytes: number } | null = null;
    if (opts.out !== undefined) {
      written = await writeBundle(plan, resolve(opts.out), {
        signal: interrupt.signal,
        onProgress: (progress) => display.update('pack', `packing  ${formatPack(progress, { bar: display.live })}`, { force: progress.done }),
      }).catch(failure);
      display.finish('pack', null);
    }
    if (opts.json) {
      ctx.io.stdout.write(`${JSON.stringify({ needsPacking: needsPacking(plan), plan, bundle: written }, null, 2)}\n`);
    } else if (written) {
      ctx.io.stdout.write(`${safeText(`Wrote ${written.path}: ${countOf(plan.entries.length, 'file')}, ${formatBytes(written.bytes)}.`)}\n`);
    } else if (needsPacking(plan)) {
      ctx.io.stdout.write('Nothing was written; add --out <bundle.zip> to write the bundle.\n');
    }
  } finally {
    display.close();
    interrupt.dispose();
  }
}

/** Errors of tracing and packing as messages for the person at the terminal. */
function failure(error: unknown): never {
  if (isAbort(error)) throw new AbortError('Packing stopped; nothing was written. Run the command again to pack.');
  if (error instanceof BlendError) throw new CommandFailedError(error.message);
  throw error;
}

