// Rules every value from the wire must meet before it goes anywhere, whatever its schema says:
// no NUL character (Postgres text cannot hold one) and no unpaired UTF-16 surrogate (it has no
// UTF-8 form, so it would be stored as something else than what was sent); JSON bodies nest at
// most MAX_JSON_DEPTH levels (deeper is no real request, and costs every layer that walks it).
import type { ValidationIssue } from '@bo/contracts';

export const MAX_JSON_DEPTH = 32;
const BAD_TEXT = 'Must not contain NUL characters or unpaired UTF-16 surrogates.';

export function isCleanText(s: string): boolean {
  return s.isWellFormed() && !s.includes('\u0000');
}

/** `path` extended by one member name, escaped as a JSON pointer. */
export const jsonPointer = (path: string, key: string) => `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Issues for every string (and object key) that breaks the text rules, as JSON pointers. */
export function badTextIssues(value: unknown, path = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Array<[unknown, string]> = [[value, path]];
  while (stack.length) {
    const [v, p] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isCleanText(v)) issues.push({ path: p || '/', message: BAD_TEXT });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    for (const [k, child] of Object.entries(v)) {
      const at = Array.isArray(v) ? `${p}/${k}` : jsonPointer(p, k);
      if (!Array.isArray(v) && !isCleanText(k)) issues.push({ path: at, message: BAD_TEXT });
      stack.push([child, at]);
    }
  }
  return issues.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** How deeply a parsed JSON value nests (a scalar is 0), walked without recursion. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}
