/** What other rooms of cli use of cli/verify: the room's public surface. */
export { checkJson, describeCheck } from './describe-check';
