import { Option, type Command } from 'commander';
import { parseBaseUrlOption } from '../options';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session';
import { loadActions } from '../actions';

/** `renderdrop login` and `renderdrop logout`: the API key of a profile, kept in the system keychain. */
export function registerAuthCommands(program: Command, deps: CliDeps): void {
  program
    .command('login')
    .description('Store the API key of a profile in the system keychain (or, with --store file, a private file), after checking it with the server.')
    .option('--profile <name>', 'profile to log in to (default: the active one; created when --base-url is given)')
    .option('--base-url <url>', 'server address for the profile (sets or changes it)', parseBaseUrlOption)
    .addOption(new Option('--store <place>', 'where to keep the key: the system keychain, or a file only your user account can read (not encrypted; for machines without a keychain)').choices(['keychain', 'file']).default('keychain'))
    .addHelpText('after', '\nThe key is read with a hidden prompt, or from standard input when it is piped:\n  printf %s "$RENDERDROP_KEY" | renderdrop login --profile studio')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.auth()).login)));

  program
    .command('logout')
    .description('Remove the stored API key of a profile (keychain and key file).')
    .option('--profile <name>', 'profile to log out of (default: the active one)')
    .action(cliAction(deps, lazyBody(async () => (await loadActions.auth()).logout)));
}
