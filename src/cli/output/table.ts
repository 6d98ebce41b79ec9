import { safeText } from '../terminal';

/** How a column is aligned. */
export type Align = 'left' | 'right';

/**
 * Rows as lines with aligned columns separated by two spaces, each cell made safe to print (one line,
 * no control characters). The last column is not padded, so lines carry no trailing blanks.
 */
export function formatTable(rows: readonly (readonly string[])[], align: readonly Align[] = []): string[] {
  const safeRows = rows.map((row) => row.map((cell) => safeText(cell)));
  const widths: number[] = [];
  for (const row of safeRows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  return safeRows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1 && align[i] !== 'right') return cell;
        const pad = ' '.repeat((widths[i] ?? 0) - displayWidth(cell));
        return align[i] === 'right' ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** Label/value pairs as aligned lines, indented by `indent`. */
export function formatPairs(pairs: readonly (readonly [string, string])[], indent = '  '): string[] {
  return formatTable(pairs.map(([label, value]) => [label, value])).map((line) => indent + line);
}

/** Width of a string in terminal cells (code points; no wide-character handling). */
export function displayWidth(text: string): number {
  return [...text].length;
}

/** `text` cut to `width` cells with an ellipsis when longer. */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return width <= 1 ? chars.slice(0, width).join('') : `${chars.slice(0, width - 1).join('')}…`;
}
