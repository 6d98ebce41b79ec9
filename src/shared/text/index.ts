/** What other layers use of shared/text: the room's public surface. */
export { formatBytes } from './format-bytes';
export { formatDuration } from './format-duration';
export { formatRate } from './format-rate';
export { percent } from './percent';
export { countOf } from './plural';
export { asSentence } from './sentence';
export { timeAgo } from './time-ago';
export { PRIORITY_PRESETS, priorityWords } from './priority-words';
export { reusedWords } from './reused-words';
