import { serializeError } from '../../core/errors';
import type { ContractHandlers } from '../../shared/contract';
import type { HandoverOutcome } from './handover-listener';

/**
 * Submits a handed-over scene through the same call a dropped file takes (`submissions.submit`), so
 * it shows in the queue and its review sheet opens; a scene the app refuses at once says why.
 */
export async function submitHandedOver(submit: ContractHandlers['submissions.submit'], scene: string): Promise<HandoverOutcome> {
  try {
    const [result] = await submit({ files: [{ path: scene }] });
    if (!result) return { accepted: false, error: 'Renderdrop did not take the scene.' };
    return result.ok ? { accepted: true, submissionId: result.submissionId } : { accepted: false, error: result.error.message };
  } catch (error) {
    return { accepted: false, error: serializeError(error).message };
  }
}
