import { Command, CommanderError } from 'commander';
import { registerAuthCommands } from './commands/auth';
import { registerDownloadCommand } from './commands/download';
import { registerJobCommands } from './commands/jobs';
import { registerNodeCommands } from './commands/node';
import { registerProfileCommands } from './commands/profile';
import { registerSubmitCommands } from './commands/submit';
import { registerWatchCommand } from './commands/watch';
import { registerWebCommand } from './commands/web';
import { EXIT } from './exit-codes';
import { VERSION } from './version';

/** Build the `renderdrop` command tree. */
export function buildProgram(): Command {
  const program = new Command('renderdrop')
    .description('Send Blender scenes to a render farm, watch them render, get the frames on your disk.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  registerSubmitCommands(program);
  registerJobCommands(program);
  registerWatchCommand(program);
  registerDownloadCommand(program);
  registerAuthCommands(program);
  registerProfileCommands(program);
  registerNodeCommands(program);
  registerWebCommand(program);
  return program;
}

/** Run the CLI with `argv` (node, script, ...args) and return the exit code. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    process.stderr.write(`renderdrop: ${(err as Error).message}\n`);
    return EXIT.failure;
  }
}
