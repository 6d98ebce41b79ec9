/** The named priorities a person picks from: Low 25, Normal 50 (the default), High 75, Urgent 100. */
export const PRIORITY_PRESETS = [
  { name: 'Low', value: 25 },
  { name: 'Normal', value: 50 },
  { name: 'High', value: 75 },
  { name: 'Urgent', value: 100 },
] as const;

/** A priority in words: "75 (high)", "60", "50 (normal)". */
export function priorityWords(priority: number): string {
  const preset = PRIORITY_PRESETS.find((p) => p.value === priority);
  return preset ? `${priority} (${preset.name.toLowerCase()})` : String(priority);
}
