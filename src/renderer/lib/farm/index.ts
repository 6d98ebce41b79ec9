/** Words and checks for a studio's farm on a Renderdrop node: workers, blocks, priority and tags. */
export { blockText, blocksOf, jobName, workerStateText } from './worker-words';
export { priorityError, tagsError, typedTags } from './studio-fields';
