// The --era values' old names, from before issue 23 named the eras: `legacy` (now `handshake`) and
// `modern` (now `stateless`) are still accepted, unlisted in --help.

import { InvalidArgumentError } from 'commander';

const OLD_NAMES: Readonly<Record<string, string>> = { legacy: 'handshake', modern: 'stateless' };

/**
 * An `--era` argument parser: a value among `choices` as is, an old name as its new name when that is
 * among `choices`, anything else an InvalidArgumentError listing `choices` (commander's own wording).
 */
export function eraParser(choices: readonly string[]): (value: string) => string {
  return (value) => {
    const era = OLD_NAMES[value] ?? value;
    if (!choices.includes(era)) throw new InvalidArgumentError(`Allowed choices are ${choices.join(', ')}.`);
    return era;
  };
}
