// Where `npm start` keeps generated secrets, the demo operator and the embedded servers' data, and
// where `npm run api` finds the demo operator: START_DATA_DIR (absolute, or relative to the
// repository root), else .data. One function, so the two always agree.
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

export function startDataDir(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(REPO_ROOT, env.START_DATA_DIR || '.data');
}
