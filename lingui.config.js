// Lingui, the islands' translations (docs/i18n.md "How to translate an island"). The messages are
// English in the code (the macros: t`...`, <Trans>, plural); `npm run i18n:extract` (also run by
// `make messages`) collects them into frontend/locales/{en,es}/messages.po, whose Spanish is
// written by hand against docs/glossary-es.md. The .po files are what is committed: the Vite
// plugin compiles the page's language at build time into a chunk of its own (no compiled JS in git).
import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "es"],
  catalogs: [
    {
      // scripts/i18n-check.sh extracts into a copy (LINGUI_LOCALES_DIR) to compare with the committed.
      path: `${process.env.LINGUI_LOCALES_DIR ?? "<rootDir>/frontend/locales"}/{locale}/messages`,
      include: ["<rootDir>/frontend"],
      exclude: ["**/*.test.ts", "**/*.test.tsx", "**/test-setup.ts", "**/test-*.tsx", "**/node_modules/**"],
    },
  ],
  orderBy: "message",
  // Each entry names its files without line numbers, so moving code does not rewrite the catalogues.
  format: formatter({ lineNumbers: false }),
});
