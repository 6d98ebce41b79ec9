import type { Command } from 'commander';
import { resolve } from 'node:path';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop pack <file.blend>`: what a scene needs from disk, and optionally its bundle. */
export function registerPackCommand(program: Command, deps: CliDeps): void {
  program
    .command('pack <scene>')
    .description(
      'List every file a .blend needs (textures, libraries, sounds, caches...): found, missing or packed, their sizes and where each goes in a bundle. With --out, write the bundle: a zip with the scene at its top that renders the same elsewhere. The scene and its files are only read.',
    )
    .option('--out <bundle.zip>', 'write the bundle to this zip')
    .option('--project <dir>', 'the project\'s folder, holding the scene (the show\'s folder): files below it are packed without a question (default: the scene\'s folder, or the one given before for this scene; remembered)')
    .option('--allow-outside <path>', 'pack files held at the project\'s edge (outside it, in secret places like ~/.ssh, hard links) when they are this file or inside this folder (repeatable)', collectPath, [])
    .option('--json', 'print the plan (and the bundle written) as JSON on stdout')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.pack()).pack)));
}

/** Collects each `--allow-outside` as an absolute path. */
export function collectPath(value: string, previous: string[]): string[] {
  return [...previous, resolve(value)];
}
