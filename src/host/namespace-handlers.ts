import type { CallName, ContractHandlers } from '../shared/contract';

/**
 * The contract's handlers of one or more namespaces: `NamespaceHandlers<'jobs'>` holds every call
 * whose name starts with `jobs.`.
 */
export type NamespaceHandlers<N extends string> = {
  [K in CallName as K extends `${N}.${string}` ? K : never]: ContractHandlers[K];
};
