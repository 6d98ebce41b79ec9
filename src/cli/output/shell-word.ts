/** `text` as one word of a shell command line: as it is when plain, else in double quotes. */
export function shellWord(text: string): string {
  return /^[\w.@%+=:,/-]+$/.test(text) ? text : `"${text.replace(/(["\\$`])/g, '\\$1')}"`;
}
