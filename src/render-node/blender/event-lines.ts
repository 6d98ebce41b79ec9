import { z } from 'zod';
import { createLineSplitter, type LineSplitter } from './line-splitter';

/** Prefix of the machine-readable lines Renderdrop's Blender scripts print on stdout. */
export const EVENT_PREFIX = 'RDJSON ';

const frameEventSchema = z.object({
  event: z.literal('frame'),
  frame: z.number().int(),
  path: z.string(),
  seconds: z.number(),
  skipped: z.boolean().optional(),
});

const eventSchema = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('ready'),
    frameCount: z.number().int().optional(),
    engine: z.string().optional(),
    outputPattern: z.string().optional(),
  }),
  frameEventSchema,
  z.object({ event: z.literal('warning'), message: z.string() }),
  z.object({ event: z.literal('error'), message: z.string() }),
  z.object({ event: z.literal('done') }),
  z.object({ event: z.literal('eevee'), ok: z.boolean(), gpu: z.string().nullable() }),
  z.object({ event: z.literal('preview'), path: z.string(), width: z.number().int(), height: z.number().int() }),
]);

/** One event a Renderdrop Blender script reported. */
export type BlenderEvent = z.infer<typeof eventSchema>;
/** A frame file written (or found already there and `skipped`). */
export type FrameEvent = z.infer<typeof frameEventSchema>;
/** The events render.py prints. */
export type RenderEvent = Extract<BlenderEvent, { event: 'ready' | 'frame' | 'warning' | 'error' | 'done' }>;

/**
 * The prefix of a render's event lines: `RDJSON:<token> `, with a random token given to the script in
 * its plan file. Names inside a scene (objects, layers) end up in Blender's own progress lines; without
 * the token a scene could forge events.
 */
export function tokenPrefix(token: string): string {
  return `RDJSON:${token} `;
}

/**
 * The event on one stdout line, or null when the line is ordinary Blender output or a malformed or
 * unknown event. The prefix may follow other text: Blender's own buffered output can end up on the
 * same line.
 */
export function parseEventLine(line: string, prefix: string = EVENT_PREFIX): BlenderEvent | null {
  const start = line.lastIndexOf(prefix);
  if (start === -1) return null;
  let json: unknown;
  try {
    json = JSON.parse(line.slice(start + prefix.length));
  } catch {
    return null;
  }
  const parsed = eventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/**
 * Turn a chunked stdout stream into events: complete lines are parsed as they arrive, other lines go
 * to `onOtherLine`.
 */
export function createEventLineParser(
  onEvent: (event: BlenderEvent) => void,
  onOtherLine?: (line: string) => void,
  prefix: string = EVENT_PREFIX,
): LineSplitter {
  return createLineSplitter((line) => {
    const event = parseEventLine(line, prefix);
    if (event) onEvent(event);
    else onOtherLine?.(line);
  });
}
