import { realpathSync } from 'node:fs';

/** The command that runs this very `renderdrop` (Node, its flags, the script's real path), for the Blender add-on to record. */
export function thisCli(): string[] {
  const script = process.argv[1];
  if (!script) return [process.execPath];
  let real = script;
  try {
    real = realpathSync(script);
  } catch {
    // keep the path as given
  }
  return [process.execPath, ...process.execArgv.filter((arg) => !arg.startsWith('--inspect')), real];
}
