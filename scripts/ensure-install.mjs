// Runs before `npm start` and `npm test` on whatever Node npm found: installs the project (npm ci)
// when node_modules is missing or was installed from another package-lock.json, so a fresh clone,
// or a pull that changed dependencies, needs only the one command, and `npm ci && npm test`
// installs once.
//
// "Installed from this lock" is npm's own record: node_modules/.package-lock.json (written by
// npm ci / npm install when they finish) against package-lock.json, package by package (version,
// resolved, integrity, link). Packages npm skips on this platform (optional, e.g. other OSes'
// binaries) are absent from npm's record and do not count.
//
// One install at a time: the install takes a lock (a directory, .install-lock/, holding the pid),
// and waits while another ensure-install holds it or while an `npm ci` / `npm install` started
// by hand runs in this project (found by its command line, or the process title npm gives itself,
// and its working directory in /proc, so only on Linux; elsewhere a hand-started npm ci is not
// waited for).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const defaultRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg) => console.error(`[install] ${msg}`);

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const FIELDS = ['version', 'resolved', 'integrity', 'link'];

/**
 * Whether node_modules holds what package-lock.json asks for, and if not, why (one sentence).
 * @param {string} root
 * @returns {{ installed: true } | { installed: false, why: string }}
 */
export function installState(root) {
  const lockFile = path.join(root, 'package-lock.json');
  const npmRecord = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(path.join(root, 'node_modules'))) return { installed: false, why: 'node_modules is missing' };
  if (!existsSync(npmRecord)) {
    return { installed: false, why: 'node_modules has no record of a finished npm install (node_modules/.package-lock.json)' };
  }
  const wanted = readJson(lockFile).packages ?? {};
  const have = readJson(npmRecord).packages ?? {};
  const changed = [];
  for (const [key, want] of Object.entries(wanted)) {
    if (!key.includes('node_modules/')) continue; // the project and its workspaces' own folders
    const got = have[key];
    if (!got) {
      if (!want.optional) changed.push(`${key} missing`);
      continue;
    }
    if (FIELDS.some((f) => (want[f] ?? null) !== (got[f] ?? null))) changed.push(`${key} ${got.version ?? ''} → ${want.version ?? ''}`);
  }
  for (const key of Object.keys(have)) {
    if (key.includes('node_modules/') && !(key in wanted)) changed.push(`${key} no longer wanted`);
  }
  if (changed.length > 0) {
    const shown = changed.slice(0, 3).join(', ');
    return {
      installed: false,
      why: `package-lock.json changed since the last install (${changed.length} package${changed.length === 1 ? '' : 's'}: ${shown}${changed.length > 3 ? ', …' : ''})`,
    };
  }
  // The pinned Node 24 and tap come with the install; their absence means an interrupted one.
  for (const bin of ['node_modules/node/bin/node', 'node_modules/.bin/tap']) {
    if (!existsSync(path.join(root, bin))) return { installed: false, why: `${bin} is missing (an interrupted install?)` };
  }
  return { installed: true };
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

/** Pids of this process and its ancestors: the npm that runs us is not "another install". */
function ancestors() {
  const pids = new Set([process.pid]);
  let pid = process.ppid;
  while (pid > 1 && !pids.has(pid)) {
    pids.add(pid);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
  }
  return pids;
}

/**
 * A process's arguments from /proc. npm sets its process title (`npm ci`), which overwrites argv in
 * place: /proc/<pid>/cmdline then holds the title as one string, words separated by spaces, padded
 * with NULs. Such a command line is split on its spaces.
 * @param {number} pid
 */
export function commandLineOf(pid) {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  return argv.length === 1 ? argv[0].split(' ').filter(Boolean) : argv;
}

const INSTALL_COMMANDS = new Set(['ci', 'clean-install', 'install', 'i', 'add', 'update', 'up', 'uninstall', 'rm']);

/**
 * An `npm ci` / `npm install` running in this project (not started by us), or undefined.
 * Reads /proc: Linux only; elsewhere it finds none.
 * @param {string} root
 */
export function npmInstallRunning(root) {
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const mine = ancestors();
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || mine.has(pid)) continue;
    try {
      const argv = commandLineOf(pid);
      const at = argv.findIndex((a) => /^npm(-cli\.js)?$/.test(path.basename(a)));
      if (at < 0) continue;
      const command = argv.slice(at + 1).find((a) => !a.startsWith('-'));
      if (!command || !INSTALL_COMMANDS.has(command)) continue;
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd === root || cwd.startsWith(`${root}${path.sep}`)) return { pid, command: argv.slice(at).join(' ') };
    } catch {
      // gone, or not ours to read
    }
  }
  return undefined;
}

/**
 * Takes the install lock (waiting for whoever holds it, and for a hand-started npm install),
 * then calls `work`; the lock is released afterwards. A lock left by a dead process is taken over.
 * @param {string} root
 * @param {() => void} work
 */
export async function withInstallLock(root, work, pollMs = 500) {
  const lockDir = path.join(root, '.install-lock');
  const pidFile = path.join(lockDir, 'pid');
  let told = '';
  const tell = (msg) => {
    if (msg !== told) say(msg);
    told = msg;
  };
  for (;;) {
    const npm = npmInstallRunning(root);
    if (npm) {
      tell(`waiting: ${npm.command} (pid ${npm.pid}) is installing into this node_modules`);
    } else {
      try {
        mkdirSync(lockDir);
        writeFileSync(pidFile, `${process.pid}\n`);
        break;
      } catch (err) {
        if (err.code !== 'EEXIST') throw err;
        let holder = Number.NaN;
        try {
          holder = Number(readFileSync(pidFile, 'utf8').trim());
        } catch {
          // just made, its pid not yet written
        }
        if (Number.isInteger(holder) && holder > 0 && !alive(holder)) {
          say(`taking over the install lock of pid ${holder}, which is gone`);
          rmSync(lockDir, { recursive: true, force: true });
          continue;
        }
        tell(`waiting: another install (pid ${Number.isNaN(holder) ? '?' : holder}) holds ${path.relative(root, lockDir)}/`);
      }
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/** @param {string} root */
export async function ensureInstall(root) {
  const before = installState(root);
  if (before.installed && !npmInstallRunning(root) && !existsSync(path.join(root, '.install-lock'))) return 0;
  return withInstallLock(root, () => {
    // Whoever we waited for may have installed just this.
    const state = installState(root);
    if (state.installed) {
      if (!before.installed) say('node_modules was installed meanwhile, from this package-lock.json');
      return 0;
    }
    say(`installing dependencies (npm ci): ${state.why}`);
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit', cwd: root });
    if (r.status !== 0) {
      say(`npm ci failed (${r.error?.message ?? `exit ${r.status}`})`);
      return r.status || 1;
    }
    return 0;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await ensureInstall(defaultRoot);
}
