// Colour for one output stream: only on a terminal, and never when NO_COLOR is set (no-color.org).

import pc from 'picocolors';

/** The picocolors functions, real or pass-through. */
export type Colours = ReturnType<typeof pc.createColors>;

/** True when `stream` is a terminal and NO_COLOR is unset or empty. */
export function hasColour(stream: { isTTY?: boolean }): boolean {
  const noColor = process.env.NO_COLOR;
  return stream.isTTY === true && (noColor === undefined || noColor === '');
}

/** Colours for `stream`: styling functions when it {@link hasColour}, identity functions otherwise. */
export function coloursFor(stream: { isTTY?: boolean }): Colours {
  return pc.createColors(hasColour(stream));
}
