import type { Command } from 'commander';
import { parseBaseUrlOption } from '../options/parse-options';
import type { CliDeps } from '../cli-deps';
import { cliAction, lazyBody } from '../session/cli-action';

/** `renderdrop login` and `renderdrop logout`: the API key of a profile, kept in the system keychain. */
export function registerAuthCommands(program: Command, deps: CliDeps): void {
  program
    .command('login')
    .description('Store the API key of a profile in the system keychain, after checking it with the server.')
    .option('--profile <name>', 'profile to log in to (default: the active one; created when --base-url is given)')
    .option('--base-url <url>', 'server address for the profile (sets or changes it)', parseBaseUrlOption)
    .addHelpText('after', '\nThe key is read with a hidden prompt, or from standard input when it is piped:\n  printf %s "$RENDERDROP_KEY" | renderdrop login --profile studio')
    .action(cliAction(deps, lazyBody(async () => (await import('../actions/auth')).login)));

  program
    .command('logout')
    .description('Remove the API key of a profile from the system keychain.')
    .option('--profile <name>', 'profile to log out of (default: the active one)')
    .action(cliAction(deps, lazyBody(async () => (await import('../actions/auth')).logout)));
}
