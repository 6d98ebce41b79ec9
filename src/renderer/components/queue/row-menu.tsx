import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

/** One action of a row's menu. */
export interface RowAction {
  id: string;
  label: string;
  /** What a screen reader says for the action when the row's name must be part of it ("Submit shot.blend again"); else the label and the name. */
  accessibleName?: string;
  /** The words on the row's button when this is its main action and the label is too long for it ("Retry"); the menu shows the label. */
  shortLabel?: string;
  run(): void;
}

/**
 * The "More actions" button of a queue row and its menu: every action of the row, for when the row
 * is too narrow to show them. Arrow keys move through the items, Escape closes it and returns focus.
 */
export function RowMenu(props: { actions: RowAction[]; name: string; onOpenChange?: (open: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const { onOpenChange } = props;

  useEffect(() => {
    onOpenChange?.(open);
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const outside = (e: MouseEvent) => {
      const target = e.target;
      if (!(target instanceof Node) || (!menu.current?.contains(target) && !button.current?.contains(target))) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open, onOpenChange]);

  if (props.actions.length === 0) return <span className="row-menu-space" />;

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.findIndex((item) => item === document.activeElement);
    if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      e.stopPropagation();
      const next = e.key === 'ArrowDown' ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
      items[next]?.focus();
    }
  };
  return (
    <div className="row-menu">
      <button
        ref={button}
        type="button"
        className="row-menu-button"
        aria-label={`More actions for ${props.name}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') e.stopPropagation();
        }}
      >
        ⋯
      </button>
      {open && (
        <div ref={menu} id={menuId} role="menu" aria-label={`Actions for ${props.name}`} className="row-menu-list" onKeyDown={onKey}>
          {props.actions.map((action) => (
            <button
              key={action.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                close();
                action.run();
              }}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
