import { Fragment } from 'react';

/**
 * A message with the parts it quotes between backticks (a driver's expression, a text block's name)
 * shown as code, without the backticks; a message without a closed pair is shown as it is.
 */
export function BacktickCode(props: { text: string }) {
  const parts = props.text.split('`');
  if (parts.length < 3 || parts.length % 2 === 0) return <>{props.text}</>;
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}
    </>
  );
}
