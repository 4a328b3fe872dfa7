// The kit's `?` placeholders: numbered in order outside strings, quoted identifiers and `--`
// comments, so a statement can carry a comment with an apostrophe or a question mark.
import t from 'tap';
import { prepare } from '../src/index.ts';

t.test('placeholders are numbered outside strings, identifiers and comments', async (t) => {
  t.equal(prepare('select ? as a, ? as b').text, 'select $1 as a, $2 as b');
  t.equal(prepare(`select '?' as "why?", ? as x`).text, `select '?' as "why?", $1 as x`);
  t.equal(
    prepare(`with a as (select ?) -- the session's row: why?\nselect ? from a`).text,
    `with a as (select $1) -- the session's row: why?\nselect $2 from a`,
    'a comment neither opens a string nor takes a placeholder',
  );
  t.equal(prepare('select 5 - -? as y').text, 'select 5 - -$1 as y', 'a minus sign is not a comment');
  t.equal(prepare('select ?').name, prepare('select ?').name, 'one name per text');
});
