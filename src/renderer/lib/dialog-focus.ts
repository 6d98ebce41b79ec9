import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements of `root` Tab reaches, in order (hidden ones left out). */
export function focusablesIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.tabIndex >= 0 && !el.closest('[hidden], [inert]') && el.getClientRects().length > 0);
}

/**
 * Where Tab goes from `active` inside a dialog whose focusable elements are `items`: round from the
 * last to the first (Shift+Tab: the first to the last), and into the dialog when focus is outside it.
 * Null: let the browser move focus.
 */
export function nextInCycle<T>(items: readonly T[], active: T | null, backwards: boolean): T | null {
  if (items.length === 0) return null;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const index = active === null ? -1 : items.indexOf(active);
  if (index === -1) return backwards ? last : first;
  if (backwards && index === 0) return last;
  if (!backwards && index === items.length - 1) return first;
  return null;
}

/** Open dialogs, innermost last: only the innermost takes Tab and Escape. */
const open: HTMLElement[] = [];

/** The opener, or its nearest ancestor still on the page, to give focus back to. */
function returnTarget(chain: readonly HTMLElement[], fallback: () => HTMLElement | null): HTMLElement | null {
  const [opener, ...ancestors] = chain;
  if (opener?.isConnected && opener !== document.body) return opener;
  for (const ancestor of ancestors) {
    if (!ancestor.isConnected || ancestor === document.body) continue;
    const inside = focusablesIn(ancestor)[0];
    if (inside) return inside;
  }
  return fallback();
}

/**
 * Makes `dialog` modal for the keyboard while it is mounted: focus moves into it (its first field,
 * else the dialog itself), Tab and Shift+Tab cycle inside it, Escape calls `onEscape`, and on close
 * focus goes back to the element that opened it (or, when that is gone, to what stands nearest to it,
 * else to `fallback`).
 */
export function useDialogFocus(dialog: RefObject<HTMLElement | null>, onEscape: () => void, fallback: () => HTMLElement | null = () => document.querySelector<HTMLElement>('main')): void {
  const escape = useRef(onEscape);
  escape.current = onEscape;
  const back = useRef(fallback);
  back.current = fallback;

  useEffect(() => {
    const node = dialog.current;
    if (!node) return;
    const chain: HTMLElement[] = [];
    for (let el = document.activeElement instanceof HTMLElement ? document.activeElement : null; el; el = el.parentElement) chain.push(el);
    open.push(node);
    if (!node.contains(document.activeElement)) (focusablesIn(node)[0] ?? node).focus();

    const onKey = (e: KeyboardEvent) => {
      if (open[open.length - 1] !== node) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        escape.current();
        return;
      }
      if (e.key !== 'Tab') return;
      const active = document.activeElement instanceof HTMLElement && node.contains(document.activeElement) ? document.activeElement : null;
      const items = focusablesIn(node);
      if (items.length === 0) {
        e.preventDefault();
        node.focus();
        return;
      }
      const target = nextInCycle(items, active, e.shiftKey);
      if (target) {
        e.preventDefault();
        target.focus();
      }
    };
    const onFocusIn = (e: FocusEvent) => {
      if (open[open.length - 1] !== node || !(e.target instanceof Node) || node.contains(e.target)) return;
      (focusablesIn(node)[0] ?? node).focus();
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('focusin', onFocusIn);
      const at = open.lastIndexOf(node);
      if (at !== -1) open.splice(at, 1);
      const under = open[open.length - 1];
      const target = returnTarget(chain, () => back.current());
      if (under && !(target && under.contains(target))) (focusablesIn(under)[0] ?? under).focus();
      else target?.focus();
    };
  }, [dialog]);
}
