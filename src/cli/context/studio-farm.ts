import type { ApiClient, CallOptions } from '../../core/api';
import { NotFoundError } from '../../core/errors';
import type { FrameOrder, NodeWorkers } from '../../shared/api';
import { CommandFailedError } from '../cli-errors';

/**
 * The worker list of the profile's farm when it is a Renderdrop node; a farm without the node's
 * extensions is refused in one line saying what `doing` (the command's ask) cannot do there.
 */
export async function studioFarmWorkers(client: Pick<ApiClient, 'getNodeWorkers' | 'baseUrl'>, doing: string, options: CallOptions = {}): Promise<NodeWorkers> {
  try {
    return await client.getNodeWorkers(options);
  } catch (error) {
    if (error instanceof NotFoundError) throw new CommandFailedError(`${client.baseUrl} is not a Renderdrop node (or an older one): it cannot ${doing}.`);
    throw error;
  }
}

/**
 * Before a job that asks for a priority or worker tags is uploaded: refuses a farm that cannot honour
 * them, and answers a line to show when no worker of the farm carries every tag asked (the job would wait).
 */
export async function checkStudioAsks(client: Pick<ApiClient, 'getNodeWorkers' | 'baseUrl'>, asks: { priority?: number; requires?: string[] }, options: CallOptions = {}): Promise<string | null> {
  const what = [asks.priority !== undefined ? 'order jobs by priority (--priority)' : null, asks.requires?.length ? 'send a job only to workers with tags (--requires)' : null].filter(Boolean).join(' or ');
  if (what === '') return null;
  const view = await studioFarmWorkers(client, `${what}; submit without ${asks.priority !== undefined && asks.requires?.length ? 'them' : 'it'}`, options);
  const needed = asks.requires ?? [];
  if (needed.length === 0) return null;
  const carriers = view.mode === 'embedded' ? [view.tags ?? []] : view.workers.map((w) => w.tags ?? []);
  if (carriers.some((tags) => needed.every((t) => tags.includes(t)))) return null;
  const where = view.mode === 'embedded' ? 'This node renders with its own Blender and does not carry' : 'No render worker of this farm carries';
  return `${where} ${needed.join(' and ')}: the job will wait until a worker with ${needed.length === 1 ? 'that tag' : 'those tags'} connects.`;
}

/**
 * Before a job sent with `--order`: null when the farm is a Renderdrop node (it renders in that order),
 * else the line to show; the order is then not sent, since such a farm chooses its own.
 */
export async function checkFrameOrder(client: Pick<ApiClient, 'getNodeWorkers' | 'baseUrl'>, order: FrameOrder | undefined, options: CallOptions = {}): Promise<string | null> {
  if (order === undefined) return null;
  try {
    await client.getNodeWorkers(options);
    return null;
  } catch (error) {
    if (error instanceof NotFoundError) return `${client.baseUrl} is not a Renderdrop node (or an older one): it renders the frames in the order it chooses, so --order ${order} is left out.`;
    throw error;
  }
}
