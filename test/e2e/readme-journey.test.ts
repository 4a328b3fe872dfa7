// The README's first journey (`npm run -s api -- …` in bash), run exactly as written against a
// br-spa operator, as the demo operator `npm start` creates, twice on the same database: each run
// makes its own CPF (`npm run -s api -- cpf`), registers the limits, confirms with the payer and
// pays out to the player's own PIX CPF key. Every request answering >= 400 stops the script (set -e).
import t from 'tap';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack } from './support/stack.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

t.test("the README's journey runs green on a br-spa operator, run after run", async (t) => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const journey = /```sh\n(npm run -s api -- GET \/me\n[\s\S]*?)```/.exec(readme)?.[1] ?? '';
  t.match(journey, /CPF=\$\(npm run -s api -- cpf\)/, 'the README has the journey, with its own CPF');

  const stack = await startStack();
  t.teardown(() => stack.close());
  const op = await stack.createOperator('README Journey');
  t.equal(
    (
      await stack.admin(
        'PUT',
        `/admin/operators/${op.operator.id}/compliance`,
        { profile: 'br-spa', reason: 'the operator is licensed in Brazil' },
        'compliance',
      )
    ).status,
    200,
  );
  const { NODE_OPTIONS: _tapLoaders, ...inherited } = process.env;
  const env = { ...inherited, OPERATOR_KEY: op.sandbox.key, OPERATOR_SECRET: op.sandbox.secret, API_URL: `${stack.publicUrl}/api/v1` };

  const wallets: string[] = [];
  for (const round of ['first', 'second']) {
    const run = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${journey}`], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }).catch(
      (e: { stdout?: string; stderr?: string }) => ({ stdout: `failed: ${e.stdout ?? ''}`, stderr: e.stderr ?? '' }),
    );
    wallets.push(run.stdout);
    t.notMatch(run.stdout, /^failed: /, `${round} run: every request answered < 400${run.stdout.startsWith('failed') ? `\n${run.stderr.slice(-2000)}` : ''}`);
    t.match(
      run.stdout,
      /"available":\s*"70\.00",\s*"withdrawable":\s*"70\.00"\s*\}\s*$/,
      `${round} run: the last wallet read: deposited 100.00, paid out 30.00 to the player's own key`,
    );
  }
  const players = wallets.map((w) => /"playerId":\s*"(plr_[^"]+)"\s*,\s*"currency"[^}]*"70\.00"[^}]*\}\s*$/.exec(w)?.[1]);
  t.ok(players[0] && players[1] && players[0] !== players[1], 'each run registered its own player');
});
