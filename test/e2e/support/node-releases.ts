// Other Node.js releases than the pinned one, for tests that run code the way an operator's project
// would. They come with the install (root devDependencies aliasing the `node` package, whose install
// script fetches that release's binary), so `npm test` needs no network once installed.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Runs a command with the environment given, without NODE_OPTIONS: tap's processinfo puts its
 * loaders back into NODE_OPTIONS of every child, where they break other Node versions and the tsc
 * launcher (ERR_REQUIRE_CYCLE_MODULE); a shell drops them before the command runs.
 */
export async function runClean(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  const { stdout } = await execFileAsync('sh', ['-c', 'unset NODE_OPTIONS; exec "$0" "$@"', cmd, ...args], {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The other Node releases installed with the project, oldest first: root devDependencies that alias
 * the `node` package (`"node20": "npm:node@20.20.2"`), so a test runs them with no network.
 */
export function otherNodeReleases(): Array<{ version: string; bin: string }> {
  const { devDependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  return Object.entries(devDependencies)
    .flatMap(([name, spec]) => {
      const version = /^npm:node@(\d+\.\d+\.\d+)$/.exec(spec)?.[1];
      return version ? [{ version, bin: path.join(ROOT, 'node_modules', name, 'bin', 'node') }] : [];
    })
    .sort((a, b) => Number(a.version.split('.')[0]) - Number(b.version.split('.')[0]));
}

/** The path of the installed `node` binary of exactly `version` (e.g. `22.23.3`). */
export function nodeRelease(version: string): string {
  const release = otherNodeReleases().find((r) => r.version === version);
  if (!release) throw new Error(`Node ${version} is not a devDependency of the project (an alias of the node package, e.g. "node22": "npm:node@${version}")`);
  if (!existsSync(release.bin)) throw new Error(`${release.bin} is missing: run npm ci (it installs the other Node releases with the project)`);
  return release.bin;
}
