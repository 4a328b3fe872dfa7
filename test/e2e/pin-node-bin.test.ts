// The root postinstall (scripts/pin-node-bin.mjs) puts node_modules/.bin/node back on the pinned
// Node 24 when an install left it on another release of the `node` package (the node20/node22
// aliases declare the same bin), and leaves a correct link alone.
import t from 'tap';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');

t.test('node_modules/.bin/node points to the pinned Node after the postinstall', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bo-pin-node-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, 'scripts'));
  mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  copyFileSync(path.join(ROOT, 'scripts/pin-node-bin.mjs'), path.join(dir, 'scripts/pin-node-bin.mjs'));
  symlinkSync('../node20/bin/node', path.join(dir, 'node_modules/.bin/node'));
  const run = () => promisify(execFile)(process.execPath, [path.join(dir, 'scripts/pin-node-bin.mjs')]);

  const first = await run();
  t.equal(readlinkSync(path.join(dir, 'node_modules/.bin/node')), '../node/bin/node', 'relinked to the node package');
  t.match(first.stderr, 'it was ../node20/bin/node', 'saying what it was');
  const second = await run();
  t.equal(second.stderr, '', 'a correct link is left alone, silently');
});
