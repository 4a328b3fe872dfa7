// The conditions of a list's query with their parameters, in text order; a filter the caller did
// not give adds nothing (the operator's event list, our team's attempt log).
export class ListFilters {
  readonly #conditions: string[] = [];
  readonly params: unknown[] = [];

  add(condition: string, ...params: unknown[]): this {
    this.#conditions.push(condition);
    this.params.push(...params);
    return this;
  }

  /** `condition` with `value` as its parameter, when the caller gave one (an empty string is none). */
  given(value: string | undefined, condition: string): this {
    return value ? this.add(condition, value) : this;
  }

  /** `where a and b …`, or nothing without a condition. */
  where(): string {
    return this.#conditions.length ? `where ${this.#conditions.join(' and ')}` : '';
  }
}
