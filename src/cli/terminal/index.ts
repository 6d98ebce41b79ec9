/** What other rooms of cli use of cli/terminal: the room's public surface. */
export type { CliIo } from './cli-io';
export type { Choose, CliPrompt, Confirm } from './terminal-prompt';
export { listenForInterrupt, type Interrupt } from './interrupt';
export { safeText } from './safe-text';
