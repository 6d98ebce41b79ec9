/** What other rooms of cli use of cli/session: the room's public surface. */
export { cliAction, lazyBody } from './cli-action';
export { findProfile, isLoopbackUrl } from './find-profile';
export { thisCli } from './this-cli';
