/** The executor that renders a node's jobs on render workers through BullMQ: what the node and the frame intake use. */
export { DistributedExecutor } from './distributed-executor';
export type { ActiveRender, DistributedExecutorDeps, DistributedOptions } from './executor-options';
