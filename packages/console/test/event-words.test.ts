// Every event sent to operators has words in both languages (assets/language.js): the deliveries page
// names an event by what happened, its id beside it (issue #70), so a new event type fails here until
// it is written.
import t from 'tap';
import { ATTEMPT_OUTCOMES, EVENT_TYPES } from '@bo/contracts';

Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: { getItem: () => 'pt', setItem: () => undefined } });
const { CODES } = await import(new URL('../assets/language.js', import.meta.url).href);

for (const code of [...EVENT_TYPES, ...ATTEMPT_OUTCOMES]) {
  const words = CODES[code] as [string, string] | undefined;
  t.ok(words, `${code} has words`);
  t.ok(
    words?.every((w) => w.length > 0 && w !== code),
    `${code}: Portuguese and English written, not the code`,
  );
}
t.not(CODES['deposit.confirmed'][0], CODES['deposit.confirmed'][1], 'the two languages differ');
