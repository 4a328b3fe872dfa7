// The services as `npm test`'s processes run them: each `services/<name>/src/main.ts` bundled with
// esbuild into one file (.data/service-bundles/<name>.mjs), made once at the start of a run. A service
// started from its sources loads some 1,200 modules (kysely, TypeBox, MikroORM, ours), ~1.3 s of CPU a
// start on a slow machine; from one file ~0.4 s. The suite starts services over a thousand times, on
// two cores: that CPU is a third of its time (docs/testing.md, "Service processes from bundles").
//
// The bundle runs the same code: each of our source files keeps its own location (import.meta.url,
// dirname and filename are written into it as literals, so the console's assets, the portal's
// CHANGELOG and the rest are found where they are), and what tracing patches as it loads (pg, pino)
// or loads only to trace (the OpenTelemetry SDK, import-in-the-middle) stays outside, loaded from
// node_modules as before. A test file run by hand, `npm start` and production run the sources.
//
// `node scripts/test-service-bundles.ts <outDir>`: builds them; exit 0 when every one was made.
import { readdirSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');

/** Packages left to Node's own loading: tracing patches them as they load, or loads them only to trace. */
const LOADED_BY_NODE = ['pg', 'pg-native', 'pino', '@opentelemetry/*', 'import-in-the-middle', 'import-in-the-middle/*'];

/** Our own sources (not node_modules): where import.meta is written in as literals. */
const OWN_SOURCE = /\/((services|packages)\/[^/]+\/src|deploy\/k8s)\/.*\.ts$/;

/** Each of our files keeps its own import.meta.url, dirname and filename in the bundle. */
const ownLocations: Plugin = {
  name: 'own-locations',
  setup(b) {
    b.onLoad({ filter: OWN_SOURCE }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const source = readFileSync(args.path, 'utf8');
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/** Every service with a main.ts, by its folder's name. */
export function serviceMains(repoRoot = root): Record<string, string> {
  const mains: Record<string, string> = {};
  for (const name of readdirSync(path.join(repoRoot, 'services'))) {
    const main = path.join(repoRoot, 'services', name, 'src/main.ts');
    if (existsSync(main)) mains[name] = main;
  }
  return mains;
}

/** Builds every service's bundle into outDir (emptied first). */
export async function buildServiceBundles(outDir: string, repoRoot = root): Promise<string[]> {
  const mains = serviceMains(repoRoot);
  await bundleOwnCode(mains, outDir);
  return Object.keys(mains);
}

/**
 * Bundles each entry point (by the name its .mjs gets) into outDir, emptied first, as the services are
 * bundled: our files keep their locations, what tracing patches stays outside, shared code in chunks.
 * `deploy-manifests` bundles the manifests' check the same way (36 runs of it in one file).
 */
export async function bundleOwnCode(entryPoints: Record<string, string>, outDir: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // What a module imports later (import()) stays a later load: tracing starts before pg, pino and
    // http load (main.ts), and the OpenTelemetry SDK loads only in a process that traces. What the
    // entry points share is in shared chunks.
    splitting: true,
    chunkNames: 'shared/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // Class and function names as in the sources (MikroORM names entities by their class).
    keepNames: true,
    external: LOADED_BY_NODE,
    // CommonJS packages inside an ES module bundle still call require().
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    plugins: [ownLocations],
    logLevel: 'error',
  });
}

if (import.meta.main) {
  const outDir = process.argv[2];
  if (!outDir) {
    console.error('usage: node scripts/test-service-bundles.ts <outDir>');
    process.exit(2);
  }
  const names = await buildServiceBundles(path.resolve(outDir));
  console.log(`bundled ${names.join(', ')}`);
}
