/** Characters kept whole at the end of a cut name, so the version and extension stay readable. */
const TAIL = 12;

/**
 * A name that, when too long for its box, is cut in the middle ("forest_shot_0…_v012.blend") rather
 * than at the end; the full name shows on hover.
 */
export function MiddleEllipsis(props: { text: string; className?: string }) {
  const { text } = props;
  const cut = text.length > TAIL + 4 ? text.length - TAIL : text.length;
  return (
    <span className={`middle-ellipsis ${props.className ?? ''}`} title={text}>
      <span className="middle-ellipsis-start">{text.slice(0, cut)}</span>
      {cut < text.length && <span className="middle-ellipsis-end">{text.slice(cut)}</span>}
    </span>
  );
}
