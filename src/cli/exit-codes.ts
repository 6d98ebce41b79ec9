/** Exit codes of `renderdrop`, documented in the README. */
export const EXIT = {
  /** Everything asked for was done. */
  ok: 0,
  /** Something went wrong (network, server, file); the message says what. */
  failure: 1,
  /** The command line was wrong. */
  usage: 2,
  /** A job the command followed ended failed or canceled. */
  jobFailed: 3,
  /** `verify` found frames missing or unusable in the folder (and `--fix` did not, or could not, render them). */
  framesMissing: 4,
  /** Interrupted (Ctrl-C); state is saved, `renderdrop resume` continues. */
  interrupted: 130,
} as const;
