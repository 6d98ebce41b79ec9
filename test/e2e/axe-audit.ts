import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** One accessibility problem axe-core found, reduced to what a failing test should print. */
export interface AxeProblem {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Audits what the page shows now with axe-core (WCAG 2.x A and AA rules) and returns the serious and
 * critical violations; a test expects the list to be empty, so a failure names each problem. The page
 * must come from `browser.newContext()` (axe opens a second page in the same context). `include` limits
 * the audit to what a CSS selector matches (one part of the window).
 */
export async function seriousAxeProblems(page: Page, options: { include?: string } = {}): Promise<AxeProblem[]> {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const result = await (options.include ? builder.include(options.include) : builder).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
