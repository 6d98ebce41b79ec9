/** The tags of `required` that `tags` lacks, in the order they were required. */
export function missingTags(required: readonly string[] | undefined, tags: readonly string[] | undefined): string[] {
  const has = new Set(tags ?? []);
  return (required ?? []).filter((t) => !has.has(t));
}

/** Tags in words after "tagged": `gpu`, `gpu and big-ram`, `gpu, big-ram and studio-b`. */
export function tagsInWords(tags: readonly string[]): string {
  if (tags.length <= 1) return tags[0] ?? '';
  return `${tags.slice(0, -1).join(', ')} and ${tags.at(-1)}`;
}

/** Why a render waits on a node that renders with its own Blender and lacks tags it requires; null when it has them all. */
export function nodeTagsNote(requires: readonly string[], tags: readonly string[]): string | null {
  const missing = missingTags(requires, tags);
  return missing.length > 0 ? `Waiting: the render node is not tagged ${tagsInWords(missing)}` : null;
}
