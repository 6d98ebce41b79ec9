import type { Command } from 'commander';
import { parseBlenderVersionOption, parseCameraOption, parseFormatOption, parseFramesOption, parseOrderOption, parsePercentage, parsePresetOption, parsePriorityOption, parseRequiresOption, parseSamples, parseSceneOption, parseViewLayerOption } from '../options';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { collectPath } from './pack';
import { loadActions } from '../actions';

/** `renderdrop submit <files...>` and `renderdrop resume`. */
export function registerSubmitCommands(program: Command, deps: CliDeps): void {
  program
    .command('submit <files...>')
    .description('Send .blend or .zip scenes to render: pack a .blend with the files it uses, upload, validate, show what was detected, confirm, render.')
    .option('--frames <ranges>', 'frames to render, e.g. 1-10,20 or 1-100/5 (default: the scene\'s range)', parseFramesOption)
    .option('--samples <n>', 'render samples (default: the scene\'s)', parseSamples)
    .option('--percentage <n>', 'resolution percentage, 1-1000 (default: the scene\'s)', parsePercentage)
    .option('--scene <path>', 'the scene to render of a zip that holds several: its path inside the zip (asked on a terminal when not given)', parseSceneOption)
    .option('--camera <name>', 'camera to render from (default: the scene\'s active camera)', parseCameraOption)
    .option('--view-layer <name>', 'view layer to render (default: those the scene renders)', parseViewLayerOption)
    .option('--preset <preset>', 'colour management preset: default or aces', parsePresetOption, 'default')
    .option('--format <fmt>', 'output format: PNG, JPEG, OPEN_EXR, OPEN_EXR_MULTILAYER, TIFF, BMP, TARGA, WEBP (default: the scene\'s)', parseFormatOption)
    .option('--blender-version <version>', 'Blender to render with, a series (4.3) or exact (4.3.2) the farm has, at or above the scene\'s (default: the farm\'s choice, the lowest it has at or above the scene\'s)', parseBlenderVersionOption)
    .option('--order <order>', 'on a Renderdrop node: spread (the default) renders the first, last and middle frames first, then fills the gaps, so the whole shot is seen early; sequential renders in frame order', parseOrderOption)
    .option('--priority <n>', 'on a Renderdrop node: the job\'s priority, 0 (lowest) to 100 (highest); default 50. Higher priorities render first', parsePriorityOption)
    .option('--requires <tags>', 'on a Renderdrop node: worker tags the job needs, e.g. big-ram or big-ram,gpu; only workers with all of them render it', parseRequiresOption)
    .option('-y, --yes', 'render without asking; continue an unfinished submission of the same file')
    .option('--new', 'start a new submission even when the file has an unfinished one (which is then set aside)')
    .option('--wait', 'follow the jobs to the end, with progress')
    .option('--download <dir>', 'when done, download the outputs into <dir>/<scene>-<job id>/ (implies --wait)')
    .option('--no-pack', 'send a .blend alone, without the textures, libraries and other files it uses (by default they are packed with it)')
    .option('--project <dir>', 'the project\'s folder, holding the scene (the show\'s folder): files below it travel without a question (default: the scene\'s folder, or the one given before for this scene; remembered)')
    .option('--allow-outside <path>', 'send files held at the project\'s edge (outside it, in secret places like ~/.ssh, hard links) when they are this file or inside this folder (repeatable; others are left out)', collectPath, [])
    .option('--validate-only', 'stop once the server has checked the scene: show what it found and render nothing (submit the same file again with --yes to render it)')
    .option('--json', 'print the result as JSON on stdout (progress goes to stderr)')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.submit()).submit)));

  program
    .command('resume')
    .description('Continue every unfinished submission (after Ctrl-C, a crash or a lost connection).')
    .option('-y, --yes', 'render without asking when a submission still needs its go-ahead')
    .option('--list', 'only list the unfinished submissions')
    .option('--json', 'print the result as JSON on stdout (progress goes to stderr)')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.submit()).resume)));
}
