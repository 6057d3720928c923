// Unit tests of frontend/lib and frontend/components (make vitest): jsdom, Testing Library, and
// the runtime the pages ship (vite.config.js): Preact behind React's API.
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import { linguiPlugins, preactAliases } from "./vite.config.js";

export default defineConfig({
  plugins: [...linguiPlugins(), react()],
  resolve: {
    // The dependencies' ES module builds, as the page build takes them, so the aliases reach
    // into them (Testing Library, Radix) instead of their CommonJS builds loading React itself.
    mainFields: ["module", "browser", "main"],
    alias: preactAliases,
  },
  test: {
    environment: "jsdom",
    include: ["frontend/**/*.test.{ts,tsx}"],
    setupFiles: ["frontend/test-setup.ts"],
    restoreMocks: true,
    unstubGlobals: true,
    server: { deps: { inline: true } },
    // One worker per core, each running its files in one jsdom and one module registry instead of
    // a new jsdom per file: 15 s instead of 63-83 s here, jsdom's start being most of a file's time.
    // frontend/test-setup.ts gives every file a new registry, English, an empty DOM and storage.
    isolate: false,
    maxWorkers: "100%",
  },
});
