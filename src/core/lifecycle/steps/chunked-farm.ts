import { ApiClient, chunkedUploadsInfo } from '../../api';
import type { StepContext } from '../step-context';

/**
 * The API client to send a submission's file in chunks with: the lifecycle's own client when chunked
 * uploads are on and the farm says it takes them (a Renderdrop node); null otherwise (the zip is then
 * PUT whole, as to any farm).
 */
export async function chunkedFarm(ctx: StepContext): Promise<ApiClient | null> {
  if (!ctx.chunked || !(ctx.client instanceof ApiClient)) return null;
  return (await chunkedUploadsInfo(ctx.client, ctx.call)) ? ctx.client : null;
}
