import { Command, CommanderError } from 'commander';
import { cliDeps, type CliDeps } from './cli-deps';
import { registerAddonCommands } from './commands/addon';
import { registerAuthCommands } from './commands/auth';
import { registerDownloadCommand } from './commands/download';
import { registerJobCommands } from './commands/jobs';
import { registerLogsCommand } from './commands/logs';
import { registerNodeCommands } from './commands/node';
import { registerPackCommand } from './commands/pack';
import { registerProfileCommands } from './commands/profile';
import { registerRequeueCommand } from './commands/requeue';
import { registerStudioCommands } from './commands/studio';
import { registerSubmitCommands } from './commands/submit';
import { registerVerifyCommand } from './commands/verify';
import { registerWatchCommand } from './commands/watch';
import { registerWebCommand } from './commands/web';
import type { ExitCode } from './exit-code-for';
import { EXIT } from './exit-codes';
import { errorMessage } from './session/cli-action';
import { VERSION } from './version';

/** Build the `renderdrop` command tree on `deps` (its streams, environment, prompt and signals). */
export function buildProgram(deps: CliDeps): Command {
  const program = new Command('renderdrop')
    .description('Send Blender scenes to a render farm, watch them render, get the frames on your disk.')
    .version(VERSION)
    .configureOutput({
      writeOut: (text) => void deps.io.stdout.write(text),
      writeErr: (text) => void deps.io.stderr.write(text),
      outputError: (text, write) => write(text.replace(/^error: /, 'renderdrop: ').replace(/\n\(Did you mean /, ' (did you mean ')),
    })
    .exitOverride();
  registerSubmitCommands(program, deps);
  registerPackCommand(program, deps);
  registerJobCommands(program, deps);
  registerStudioCommands(program, deps);
  registerWatchCommand(program, deps);
  registerDownloadCommand(program, deps);
  registerLogsCommand(program, deps);
  registerVerifyCommand(program, deps);
  registerRequeueCommand(program, deps);
  registerAuthCommands(program, deps);
  registerProfileCommands(program, deps);
  registerNodeCommands(program, deps);
  registerWebCommand(program, deps);
  registerAddonCommands(program, deps);
  showUsageAfterErrors(program);
  return program;
}

/**
 * After a wrong command line, each command prints the one-line error, its usage line and where the
 * whole help is, rather than the whole help.
 */
function showUsageAfterErrors(command: Command, parents: readonly string[] = []): void {
  const path = [...parents, command.name()].join(' ');
  const what = command.commands.length > 0 ? 'its commands' : 'every option';
  command.showHelpAfterError(`Usage: ${path} ${command.usage()}\nSee \`${path} --help\` for ${what}.`);
  for (const sub of command.commands) showUsageAfterErrors(sub, [...parents, command.name()]);
}

/**
 * Runs the CLI with `argv` (node, script, ...args) and returns the exit code. `deps` replaces parts
 * of the process (streams, environment, prompt, keychain, signals); the rest are the real ones.
 */
export async function main(argv: string[], deps: Partial<Omit<CliDeps, 'setExitCode'>> = {}): Promise<ExitCode> {
  let code: ExitCode = EXIT.ok;
  const full = cliDeps(deps, (value) => void (code = value));
  try {
    await buildProgram(full).parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    full.io.stderr.write(`renderdrop: ${errorMessage(err)}\n`);
    return EXIT.failure;
  }
}
