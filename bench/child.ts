// Child processes of the benchmark (gateway, hello-world baseline, load generator) talk to
// bench/run.ts over the IPC channel: one `ready` message, then request/reply by message type.
import { fork, type ChildProcess } from 'node:child_process';

export interface Child<R> {
  proc: ChildProcess;
  ready: R;
}

/** Forks a .ts file and waits for its `{ type: 'ready' }` message; rejects if it exits first. */
export function forkReady<R>(file: URL, env: Record<string, string>, execArgv: string[] = []): Promise<Child<R>> {
  const proc = fork(file, [], { env: { ...process.env, ...env }, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`${file.pathname} exited before it was ready (code ${code}, signal ${signal})`));
    proc.once('exit', onExit);
    proc.once('error', reject);
    proc.on('message', function onMessage(msg: { type?: string }) {
      if (msg?.type !== 'ready') return;
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve({ proc, ready: msg as R });
    });
  });
}

/** Sends a message and resolves with the child's next message of `replyType`. */
export function ask<T>(proc: ChildProcess, msg: { type: string; [k: string]: unknown }, replyType: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`child exited (code ${code}) while waiting for ${replyType}`));
    const onMessage = (reply: { type?: string }) => {
      if (reply?.type !== replyType) return;
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(reply as T);
    };
    proc.on('message', onMessage);
    proc.once('exit', onExit);
    proc.send(msg);
  });
}

/** Asks the child to stop, and kills it if it has not exited within `graceMs`. */
export async function stopChild(proc: ChildProcess, graceMs = 10_000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  if (proc.connected) proc.send({ type: 'stop' });
  else proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
