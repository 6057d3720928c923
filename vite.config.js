// One entry per page island (frontend/islands/<page>.tsx); django-vite reads the manifest.
// The islands are written against React's API and run on Preact's (preact/compat): the same
// components in 10 KB of gzipped runtime instead of React DOM's 67 KB, so that every page stays
// under 100 KB of JavaScript on a phone (issue 14 item 8; marketplace/tests/test_browser_js_weight.py).
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const islandsDir = resolve(import.meta.dirname, "frontend/islands");
const input = Object.fromEntries(
  readdirSync(islandsDir)
    .filter((name) => name.endsWith(".tsx"))
    .map((name) => [name.replace(/\.tsx$/, ""), resolve(islandsDir, name)]),
);

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
  plugins: [react()],
  resolve: { alias: command === "build" ? preactAliases : [] },
  base: "/static/dist/",
  root: import.meta.dirname,
  build: {
    outDir: "static/dist",
    emptyOutDir: true,
    manifest: "manifest.json",
    rollupOptions: { input },
  },
  server: { port: 5173, strictPort: true, origin: "http://127.0.0.1:5173" },
}));
