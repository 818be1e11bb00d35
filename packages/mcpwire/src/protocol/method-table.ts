// The open method table: the core rows of methods.ts plus the rows extensions bring, looked up in one
// step. One table per Server or Client, built once at construction; the core table is shared.

import type { MethodSpec } from './method-spec.ts';
import { METHODS } from './methods.ts';

/**
 * Method rows by name: the core's and any extensions'. Lookups read a prototype-less object (no
 * `hasOwn`, no Map): the same cost as the closed table had. Immutable once built.
 */
export class MethodTable {
  /** The core methods only: the table of a Server or Client without extensions. */
  static readonly core: MethodTable = new MethodTable(METHODS);
  readonly #rows: Readonly<Record<string, MethodSpec>>;

  private constructor(rows: Readonly<Record<string, MethodSpec>>) {
    const own: Record<string, MethodSpec> = Object.create(null) as Record<string, MethodSpec>;
    Object.assign(own, rows);
    this.#rows = own;
  }

  /**
   * This table plus `rows` (an extension's methods), as a new table. Throws if a method is already
   * described: an extension never replaces a core method or another extension's.
   */
  with(rows: Readonly<Record<string, MethodSpec>>, owner: string): MethodTable {
    for (const method of Object.keys(rows)) {
      if (this.#rows[method] !== undefined)
        throw new Error(`${owner} describes "${method}", which this table already has`);
    }
    return new MethodTable({ ...this.#rows, ...rows });
  }

  /** The row for `method`, or undefined for a method neither the core nor an extension describes. */
  lookup(method: string): MethodSpec | undefined {
    return this.#rows[method];
  }

  /** True if `method` exists only in the stateless era (2026-07-28 and later). */
  isStatelessOnly(method: string): boolean {
    const spec = this.#rows[method];
    return spec !== undefined && spec.since >= '2026-07-28';
  }
}
