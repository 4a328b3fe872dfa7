// An object that names a member twice (`{"amount":"1.00","amount":"900.00"}`): JSON.parse keeps the
// last, so what a signature, a log line or another parser reads first is not what we act on
// (RFC 8259, 4: names SHOULD be unique; I-JSON, RFC 7493, MUST). Refused, naming the member. Kept
// cheap on the hot path: every colon outside a string separates a member, so the text's colons
// (counted natively) are compared with the members JSON.parse kept, less the colons inside the
// strings it kept (a URL, a time); only a body where they still differ (a duplicate, or escapes
// that hide what its strings held) is walked token by token to find the member.
import { jsonPointer } from './text-rules.ts';

/** The members of every object of a parsed value, walked without recursion. */
function memberCount(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      for (const child of v) if (child !== null && typeof child === 'object') stack.push(child);
      continue;
    }
    for (const key in v) {
      n++;
      const child = (v as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') stack.push(child);
    }
  }
  return n;
}

/** The colons inside the strings (names and values) of a parsed value. */
function colonsInStrings(value: unknown): number {
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') n += colonCount(v);
    else if (Array.isArray(v)) for (const child of v) stack.push(child);
    else if (v !== null && typeof v === 'object') {
      for (const key in v) {
        n += colonCount(key);
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
  }
  return n;
}

function colonCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) n++;
  return n;
}

/** Where the string that opens at `start` (a `"`) ends: the index of its closing quote. */
function stringEnd(text: string, start: number): number {
  for (let q = text.indexOf('"', start + 1); ; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return q;
  }
}

interface Frame {
  path: string;
  /** An object's member names so far; absent for an array. */
  names?: Set<string>;
  /** The member (object) or element (array) being read. */
  name: string;
  index: number;
}

/** The JSON pointer of the first repeated member of `text`, which must be valid JSON (JSON.parse accepted it). */
function firstRepeatedMember(text: string): string | undefined {
  const stack: Frame[] = [];
  let nameNext = false;
  const childPath = () => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    return top.names ? jsonPointer(top.path, top.name) : `${top.path}/${top.index}`;
  };
  for (let i = 0; i < text.length; i++) {
    switch (text.charCodeAt(i)) {
      case 0x22: {
        const end = stringEnd(text, i);
        const top = stack[stack.length - 1];
        if (nameNext && top?.names) {
          const raw = text.slice(i, end + 1);
          // Escapes decoded as JSON.parse decodes them: "a" and "\u0061" are the same name.
          const name = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
          if (top.names.has(name)) return jsonPointer(top.path, name);
          top.names.add(name);
          top.name = name;
          nameNext = false;
        }
        i = end;
        break;
      }
      case 0x7b:
        stack.push({ path: childPath(), names: new Set(), name: '', index: 0 });
        nameNext = true;
        break;
      case 0x5b:
        stack.push({ path: childPath(), name: '', index: 0 });
        break;
      case 0x7d:
      case 0x5d:
        stack.pop();
        break;
      case 0x2c: {
        const top = stack[stack.length - 1];
        if (top?.names) nameNext = true;
        else if (top) top.index++;
        break;
      }
    }
  }
  return undefined;
}

/** The JSON pointer of a member named twice in one object of `text` (valid JSON, parsed as `parsed`), or undefined. */
export function repeatedMember(text: string, parsed: unknown): string | undefined {
  const colons = colonCount(text);
  const members = memberCount(parsed);
  if (colons <= members) return undefined;
  // Without escapes each kept string is in the text as it was parsed, so the colons left over are separators.
  if (!text.includes('\\') && colons - colonsInStrings(parsed) <= members) return undefined;
  return firstRepeatedMember(text);
}
