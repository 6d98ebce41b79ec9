/**
 * Any error of the blend layer: a .blend that cannot be read, traced or packed. Callers that only
 * need to know "the scene's files are the problem" test for this; the subclasses say which problem.
 */
export abstract class BlendError extends Error {}
