// The `connect` pickers (a tool, a prompt, a resource): a searchable list ranked by name first, where
// Enter on no match says so instead of picking nothing.

import { autocomplete, isCancel } from '@clack/prompts';
import { toTerminalText } from '../../terminal/terminal-text.ts';

/** One choice: `name` is what it is found by first, `description` second. */
export interface PickItem {
  value: string;
  name: string;
  description?: string | undefined;
}

/** How well `item` matches `search` (lower is better), or undefined for no match. Case-insensitive. */
export function rankOf(item: PickItem, search: string): number | undefined {
  const wanted = search.trim().toLowerCase();
  if (wanted === '') return 0;
  const name = item.name.toLowerCase();
  if (name === wanted) return 0;
  if (name.startsWith(wanted)) return 1;
  if (name.includes(wanted)) return 2;
  if ((item.description ?? '').toLowerCase().includes(wanted)) return 3;
  return undefined;
}

/**
 * `items` ordered for `search`, best first: exact name, name prefix, name substring, description,
 * then those that do not match; stable within each.
 */
export function rankItems<T extends PickItem>(items: readonly T[], search: string): T[] {
  return items
    .map((item, index) => ({ item, index, rank: rankOf(item, search) ?? Infinity }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((ranked) => ranked.item);
}

/**
 * Asks the person to pick one of `items` by typing to filter; resolves with its value, or undefined
 * when they cancel (Esc, Ctrl-C). `what` names the items in the no-match message ("tool").
 */
export async function pick(
  message: string,
  what: string,
  items: readonly PickItem[],
): Promise<string | undefined> {
  const byValue = new Map(items.map((item) => [item.value, item]));
  let lastSearch: string | undefined;
  const chosen = await autocomplete<string>({
    message,
    maxItems: 8,
    // Called with the new search before the prompt filters (by `filter`): ranked, so the best match comes first.
    options() {
      if (this.userInput !== lastSearch) {
        lastSearch = this.userInput;
        // The prompt keeps the previous focus when it survives the filter: focus the best match instead.
        this.focusedValue = undefined;
      }
      return rankItems(items, this.userInput).map((item) => ({
        value: item.value,
        // Names and descriptions are the server's text: escaped here, whoever built the item.
        label: toTerminalText(item.name),
        ...(item.description === undefined || item.description === ''
          ? {}
          : { hint: toTerminalText(item.description) }),
      }));
    },
    filter: (search, option) => rankOf(byValue.get(option.value)!, search) !== undefined,
    validate: (value) =>
      typeof value === 'string' && byValue.has(value)
        ? undefined
        : `No ${what} matches "${lastSearch ?? ''}": change the search, or Esc to go back`,
  });
  return isCancel(chosen) ? undefined : chosen;
}
