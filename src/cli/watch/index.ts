/** What other rooms of cli use of cli/watch: the room's public surface. */
export { followUntilIdle } from './follow-until-idle';
export { type WatchedJob, WatchReport } from './watch-report';
