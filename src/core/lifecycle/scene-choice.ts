import { z } from 'zod';
import { defaultScene, namedScene } from '../../shared/zip';
import { InvalidStateError } from '../errors';
import { reached, type SubmissionRecord } from '../journal';

const chosenSceneSchema = z.looseObject({ scenePath: z.string().min(1) });

/** The scene of the zip the record names for validation, if any. */
export function chosenScene(record: Pick<SubmissionRecord, 'validateBody'>): string | null {
  const parsed = chosenSceneSchema.safeParse(record.validateBody);
  return parsed.success ? parsed.data.scenePath : null;
}

/**
 * The scenes a person must choose from before this submission can be validated: the candidates of a
 * zip that holds several when none is chosen yet; null when there is nothing to choose.
 */
export function scenesToChooseFrom(record: Pick<SubmissionRecord, 'file' | 'validateBody'>): string[] | null {
  if (chosenScene(record) !== null) return null;
  const scene = defaultScene(record.file.blendFiles ?? []);
  return scene.kind === 'several' ? scene.candidates : null;
}

/**
 * The validation body that renders `requested` of the record's zip (any of its `.blend` files,
 * written with `/` or `\`). Refused once validation was asked for, and for a scene the zip lacks.
 */
export function validateBodyChoosing(record: SubmissionRecord, requested: string): Record<string, unknown> {
  if (reached(record, 'validate-requested')) {
    const current = chosenScene(record);
    throw new InvalidStateError(`${record.file.name} is already being validated${current ? ` with ${current}` : ''}; its scene can no longer be changed.`);
  }
  const blends = record.file.blendFiles ?? [];
  const scene = namedScene(blends, requested);
  if (scene === null) {
    const holds = blends.length > 0 ? `It holds: ${blends.join(', ')}.` : 'It is not a zip of scenes.';
    throw new InvalidStateError(`${record.file.name} has no scene "${requested}". ${holds}`);
  }
  return { ...record.validateBody, scenePath: scene };
}
