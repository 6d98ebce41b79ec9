import { describe, expect, it } from 'vitest';
import { AuthError, InvalidStateError } from '../../src/core/errors';
import { formatAnalysisSummary } from '../../src/cli/submit/format-analysis';
import { adjustmentReasonsOf, formatJobDetails, formatJobList } from '../../src/cli/output/format-jobs';
import { LiveDisplay } from '../../src/cli/output/live-display';
import { safeText } from '../../src/cli/terminal/safe-text';
import { formatTable } from '../../src/cli/output/table';
import { errorMessage } from '../../src/cli/session/cli-action';
import { statusLine } from '../../src/cli/submit/submission-line';
import type { Job } from '../../src/shared/api/job';

const TITLE = '\x1b]0;pwned\x07';
const LINK = '\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\';
const RED = '\x1b[31;1m';
const CLEAR = '\x1b[2J\x1b[H';
const HOSTILE = `${TITLE}${RED}Shot${CLEAR} 010\x9b2J\x07\x08\x00${LINK}`;

/** No ESC, no other C0 control but the line feed, no DEL, no C1. */
function printable(text: string): boolean {
  return [...text].every((ch) => {
    const code = ch.charCodeAt(0);
    return code === 0x0a || (code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f));
  });
}

function job(overrides: Partial<Job> & Record<string, unknown> = {}): Job {
  return {
    id: '1f2e3d4c-5b6a-4798-8a9b-0c1d2e3f4a5b',
    status: 'failed',
    workspaceId: 'w',
    createdAt: '2025-03-14T09:26:00.000Z',
    updatedAt: '2025-03-14T09:30:00.000Z',
    sceneFile: { fileName: `${TITLE}${RED}Shot${CLEAR} 010\x9b2J\x07.blend` },
    ...overrides,
  } as Job;
}

describe('safeText', () => {
  it('removes CSI, OSC (BEL or ST ended) and two-character escapes with their parameters', () => {
    expect(safeText(HOSTILE)).toBe('Shot 0102Jclick');
    expect(safeText('a\x1bcb\x1b7c')).toBe('abc');
    expect(safeText('unterminated \x1b]0;title')).toBe('unterminated ');
    expect(safeText('trailing \x1b')).toBe('trailing ');
  });

  it('removes C0, DEL and C1 controls, turns tabs into spaces, keeps other text', () => {
    expect(safeText('a\x00b\x07c\x7fd\x85e\x9ff\tg')).toBe('abcdef g');
    expect(safeText('Szene «Café» — 渲染 ✓')).toBe('Szene «Café» — 渲染 ✓');
  });

  it('keeps line breaks only when multi-line text is intended', () => {
    expect(safeText('one\r\ntwo\rthree\nfour')).toBe('one two three four');
    expect(safeText('one\r\ntwo\x1b[1A\rthree\n', { multiline: true })).toBe('one\ntwo\nthree\n');
  });
});

describe('formatters print server text safely', () => {
  it('job list and job details', () => {
    const failed = job({
      failedReason: { name: `Blender${RED}Crash`, type: 'render', message: `line one ${TITLE}\nline two${CLEAR}` },
      finalConfig: { adjustments: [{ reason: `samples capped ${LINK}` }] },
    });
    const list = formatJobList({ jobs: [failed], pagination: { page: 1, pageSize: 20, total: 1, totalPages: 1 } });
    const details = formatJobDetails(failed, null);
    for (const line of [...list, ...details]) expect(printable(line), JSON.stringify(line)).toBe(true);
    for (const line of [...list, ...details]) expect(line).not.toContain('\n');
    expect(list[1]!.endsWith('  Shot 0102J')).toBe(true);
    expect(details.slice(-4)).toEqual(['Failed   BlenderCrash (render): line one', '         line two', 'Adjusted by the server:', '  - samples capped click']);
    expect(adjustmentReasonsOf(failed)).toEqual(['samples capped click']);
  });

  it('analysis summary', () => {
    const lines = formatAnalysisSummary({
      fileName: 'shot.blend',
      jobId: `j${RED}1`,
      analysis: { engine: `CYCLES${CLEAR}`, cameras: [`Cam${TITLE}`], activeCamera: `Cam${TITLE}`, warnings: [{ code: 'x', message: `bad ${LINK}` }] },
      renderConfig: { colorManagementPreset: 'default' },
    });
    for (const line of lines) expect(printable(line), JSON.stringify(line)).toBe(true);
    expect(lines.join('\n')).toContain('! bad click');
  });

  it('tables, status lines, the live display and error messages', () => {
    for (const line of formatTable([['ID', 'SCENE'], ['1', HOSTILE]])) expect(printable(line)).toBe(true);
    expect(printable(statusLine('a.blend', 'error', `The storage refused the upload (413: ${HOSTILE})`))).toBe(true);
    const written: string[] = [];
    const display = new LiveDisplay({ write: (chunk: string) => written.push(chunk) }, { live: false });
    display.print([`a.blend: ${HOSTILE}`]);
    display.update('k', `a.blend ${HOSTILE}`);
    expect(written.every(printable)).toBe(true);
    expect(printable(errorMessage(new InvalidStateError(`Could not validate job (400: ${HOSTILE}).`)))).toBe(true);
    expect(printable(errorMessage(new AuthError(`API key rejected (401: ${TITLE}).`)))).toBe(true);
    expect(printable(errorMessage(new Error(`boom ${CLEAR}`)))).toBe(true);
  });
});
