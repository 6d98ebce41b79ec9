/** What a format checker answers about an image's structure: null when whole, else why not. */
export type StructureProblem = string | null;
