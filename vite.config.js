// One entry per page island (frontend/islands/<page>.tsx); django-vite reads the manifest.
// The islands are written against React's API and run on Preact's (preact/compat): the same
// components in 10 KB of gzipped runtime instead of React DOM's 67 KB, so that every page stays
// under 100 KB of JavaScript on a phone (marketplace/tests/test_browser_js_weight.py).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import babel from "@rolldown/plugin-babel";
import { lingui } from "@lingui/vite-plugin";

const islandsDir = resolve(import.meta.dirname, "frontend/islands");
const input = Object.fromEntries(
  readdirSync(islandsDir)
    .filter((name) => name.endsWith(".tsx"))
    .map((name) => [name.replace(/\.tsx$/, ""), resolve(islandsDir, name)]),
);

// The code islands share, in two chunks. Left to itself Rollup makes a chunk of each module shared
// by a different set of islands: a dozen files of a few hundred bytes each, and django-vite writes
// a <link rel="modulepreload"> for every one of them into every page (26 tags on the dashboard,
// rebuilt on each request). "runtime" holds what every page loads anyway (the toaster island's
// Preact and toasts, and mounting an island); "shared" what at least SHARED_BY islands import,
// which only pages with a bigger island load. A module fewer islands share keeps its own chunk:
// measured, the bytes pages would then load without using them outweighed the tags saved. Only
// Preact, Lingui's runtime (every island speaks through it) and Kindly's own modules go in, and only those whose static imports stay within them and
// import no CSS: a library such as Radix, or a component's stylesheet, stays out, so no page loads
// what none of its islands imports.
// Lingui's runtime imports its message compiler (@messageformat, moo), which builds leave out; the
// page's catalogue is a dynamic import (lib/i18n.ts), through Vite's preload helper.
const SHARED =
  /\/node_modules\/(preact|@lingui\/(core|react|message-utils)|@messageformat\/[^/]+|moo)\/|\/frontend\/(lib|components)\/|^\0vite\/preload-helper/;
const SHARED_BY = 4;
const RUNTIME = [resolve(islandsDir, "toaster.tsx")];
const RUNTIME_MODULES = [resolve(import.meta.dirname, "frontend/lib/mount.tsx")];

function sharedChunk(id, { getModuleInfo }) {
  if (!SHARED.test(id) || id.includes("?") || !staysShared(id, getModuleInfo, new Set())) return undefined;
  const islands = islandsReaching(id, getModuleInfo);
  if (RUNTIME_MODULES.includes(id) || RUNTIME.some((island) => islands.has(island))) return "runtime";
  return islands.size >= SHARED_BY ? "shared" : undefined;
}

function staysShared(id, getModuleInfo, seen) {
  if (seen.has(id)) return true;
  seen.add(id);
  if (!SHARED.test(id) || id.endsWith(".css")) return false;
  return getModuleInfo(id).importedIds.every((dep) => staysShared(dep, getModuleInfo, seen));
}

function islandsReaching(id, getModuleInfo, seen = new Set()) {
  const found = new Set();
  if (seen.has(id)) return found;
  seen.add(id);
  const info = getModuleInfo(id);
  if (info.isEntry) found.add(id);
  for (const importer of info.importers) {
    for (const island of islandsReaching(importer, getModuleInfo, seen)) found.add(island);
  }
  return found;
}

// Lingui (lingui.config.js, docs/i18n.md): its macros (t`...`, <Trans>, plural) become message
// lookups at build time. @vitejs/plugin-react 6 no longer runs Babel, so Lingui's Babel macro
// plugin runs through @rolldown/plugin-babel, on the files that import a macro only, before the
// React plugin; lingui() compiles a catalogue import into a module: a language's whole catalogue
// (frontend/locales/<locale>/messages.po, Vitest's) or an island's own, generated
// (frontend/locales/islands/<island>/<locale>.po), which lingui.islands.config.js knows of.
const LINGUI_MACRO = /from ["']@lingui\/(core|react)\/macro["']/;
export const linguiPlugins = () => [
  babel({
    presets: [
      { preset: { plugins: ["@lingui/babel-plugin-lingui-macro"] }, rolldown: { filter: { code: LINGUI_MACRO } } },
    ],
  }),
  lingui({ configPath: resolve(import.meta.dirname, "lingui.islands.config.js") }),
];

// Each island's own catalogues, generated from the hand-written ones as the build starts (and as
// the dev server does), so a page loads only the messages its islands can show (lib/i18n.ts,
// docs/i18n.md). Not in Vitest: its tests use the whole catalogue.
const islandCatalogues = () => ({
  name: "kindly-island-catalogues",
  buildStart() {
    execFileSync(process.execPath, [resolve(import.meta.dirname, "scripts/island-catalogues.mjs")], {
      stdio: "inherit",
    });
  },
});

// A catalogue is named for its language and island (assets/catalogue-es-dashboard-<hash>.js; a
// language's whole catalogue catalogue-es-all-<hash>.js), not "messages" like the /messages island:
// the weight test tells them apart.
function chunkFileNames(chunk) {
  const id = chunk.facadeModuleId ?? "";
  if (!id.endsWith(".po")) return "assets/[name]-[hash].js";
  const island = /\/locales\/islands\/([^/]+)\/([^/]+)\.po$/.exec(id);
  return island
    ? `assets/catalogue-${island[2]}-${island[1]}-[hash].js`
    : `assets/catalogue-${basename(dirname(id))}-all-[hash].js`;
}

export const preactAliases = [
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react-dom\/test-utils$/, replacement: "preact/test-utils" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-dev-runtime" },
  { find: /^react$/, replacement: "preact/compat" },
];

// The dev server (VITE_DEV_MODE) keeps React itself, for Fast Refresh; builds and Vitest use Preact.
export default defineConfig(({ command }) => ({
  plugins: [islandCatalogues(), ...linguiPlugins(), react()],
  resolve: { alias: command === "build" ? preactAliases : [] },
  base: "/static/dist/",
  root: import.meta.dirname,
  build: {
    outDir: "static/dist",
    emptyOutDir: true,
    manifest: "manifest.json",
    rollupOptions: {
      input,
      output: { manualChunks: sharedChunk, chunkFileNames },
      // Babel (Lingui's macros, on the files that import one) is most of the build's few seconds:
      // known and accepted, so Rolldown's plugin-timing warning is off.
      checks: { pluginTimings: false },
    },
  },
  server: { port: 5173, strictPort: true, origin: "http://127.0.0.1:5173" },
}));
