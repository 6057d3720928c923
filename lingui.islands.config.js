// The islands' own catalogues (docs/i18n.md "How the catalogues reach a page"): lingui.config.js
// and one experimental extractor, Lingui's dependency tree crawling. From each island
// (frontend/islands/<name>.tsx) it follows the imports and lists the messages that island can show,
// into frontend/locales/islands/<name>/messages.pot; scripts/island-catalogues.mjs fills them from
// the hand-written catalogues. Only the build uses this file (vite.config.js, the script):
// `lingui extract` and `lingui compile` (npm scripts, scripts/i18n-check.sh) keep lingui.config.js,
// which knows nothing of these generated files.
import { defineConfig } from "@lingui/conf";
import base from "./lingui.config.js";

export default defineConfig({
  ...base,
  experimental: {
    extractor: {
      entries: ["<rootDir>/frontend/islands/*.tsx"],
      output: "<rootDir>/frontend/locales/islands/{entryName}/{locale}",
      // Lingui's list, and the catalogues an island imports (lib/i18n.ts): files, not code to crawl.
      excludeExtensions: [
        ...["ico", "pot", "xliff", "woff2", "woff", "eot", "gif", "otf", "ttf", "mp4", "svg", "png"],
        ...["css", "sass", "scss", "less", "jpg", "po"],
      ],
    },
  },
});
