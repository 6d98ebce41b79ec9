import type { Command } from 'commander';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop addon install|uninstall|status`: the Blender add-on in each Blender's user add-ons. */
export function registerAddonCommands(program: Command, deps: CliDeps): void {
  const addon = program.command('addon').description('The Renderdrop add-on for Blender: send the open scene from inside Blender.');
  addon
    .command('install')
    .description('Install the add-on into the user add-ons of every Blender 3.3 or newer on this computer (or the one --blender names) and enable it. Installing again updates it.')
    .option('--blender <path>', 'only this Blender (its program, or the folder it is in)')
    .option('--no-enable', 'copy the add-on without turning it on in Blender\'s preferences')
    .option('--json', 'print the result as JSON')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.addon()).installCommand)));
  addon
    .command('uninstall')
    .description('Remove the add-on from every Blender it was installed into (or the one --blender names); only the files Renderdrop put there are removed.')
    .option('--blender <path>', 'only this Blender (its program, or the folder it is in)')
    .option('--json', 'print the result as JSON')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.addon()).uninstallCommand)));
  addon
    .command('status')
    .description('Show each Blender found and whether the add-on is installed for it.')
    .option('--blender <path>', 'only this Blender (its program, or the folder it is in)')
    .option('--json', 'print the result as JSON')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.addon()).statusCommand)));
}
