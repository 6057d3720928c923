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
    // A worker per file at a time, each with a new jsdom: half of a file's time is the environment
    // starting, partly waiting on the disk. Vitest's default on 2 cores is one worker (121 s here);
    // three (150% of the cores) took 73-83 s, the tests alike.
    maxWorkers: "150%",
  },
});
