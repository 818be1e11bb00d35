// The client's memory of each tool's outputSchema (from tools/list) and the TOOL-3 check of call results.

import type { CallToolResult, Tool } from '../protocol/types/index.ts';
import type { JsonSchemaValidator, Validate } from '../validation/index.ts';
import { OutputValidationError } from './errors.ts';

/**
 * Output schemas by tool name, as the server last listed them. Pages are remembered as they
 * arrive; the cache knows the whole list only after a listing that reached its last page, and
 * forgets everything on `notifications/tools/list_changed` (`invalidate`).
 */
export class ToolOutputSchemas {
  #validator: JsonSchemaValidator;
  /** Tool name -> its output check (`undefined`: listed, without an outputSchema). */
  #checks = new Map<string, Validate | undefined>();
  #isComplete = false;
  #generation = 0;
  #listing: Promise<void> | undefined;
  #onListingFailure: (error: Error) => void;

  /** `onListingFailure` hears about listings that `ensureKnown` started and that failed. */
  constructor(validator: JsonSchemaValidator, options: { onListingFailure: (error: Error) => void }) {
    this.#validator = validator;
    this.#onListingFailure = options.onListingFailure;
  }

  /** A number that changes on every `invalidate`, so a listing started earlier can tell it is stale. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Remembers one page of tools from a listing begun at `generation`; `isWholeList` says the
   * listing started at the first page and this is its last. Pages from a stale listing are ignored.
   */
  remember(tools: readonly Tool[], options: { generation: number; isWholeList: boolean }): void {
    if (options.generation !== this.#generation) return;
    for (const tool of tools) {
      const schema = tool.outputSchema;
      this.#checks.set(tool.name, schema === undefined ? undefined : this.#validator.compile(schema));
    }
    if (options.isWholeList) this.#isComplete = true;
  }

  /** True if no listing is needed to check `name`: it was listed, or the whole list is known without it. */
  knows(name: string): boolean {
    return this.#isComplete || this.#checks.has(name);
  }

  /**
   * Resolves once `name` is known, calling `listAll` (which must `remember` what it lists) only if
   * it is not. Concurrent callers share one listing. A failed listing is reported to
   * `onListingFailure` and resolves: the call then goes unchecked rather than failing because of
   * a side request.
   */
  ensureKnown(name: string, listAll: () => Promise<unknown>): Promise<void> {
    if (this.knows(name)) return Promise.resolve();
    this.#listing ??= listAll()
      .then(
        () => undefined,
        (error: unknown) =>
          this.#onListingFailure(
            new Error('Could not list tools to check tools/call output', { cause: error }),
          ),
      )
      .finally(() => {
        this.#listing = undefined;
      });
    return this.#listing;
  }

  /** Forgets every schema (the server's tool list changed). */
  invalidate(): void {
    this.#checks.clear();
    this.#isComplete = false;
    this.#generation++;
  }

  /**
   * Throws OutputValidationError if `result` does not satisfy the listed tool's outputSchema
   * (TOOL-3). Results with `isError: true` and tools without a known schema pass unchecked.
   */
  async check(name: string, result: CallToolResult): Promise<void> {
    const validate = this.#checks.get(name);
    if (validate === undefined || result.isError === true) return;
    if (result.structuredContent === undefined) {
      throw new OutputValidationError(
        name,
        ['(root): missing; the tool declares an outputSchema but the result has no structuredContent'],
        result,
      );
    }
    const outcome = await validate(result.structuredContent);
    if (!outcome.valid) throw new OutputValidationError(name, outcome.errors, result);
  }
}
