#!/usr/bin/env node
// Each island's own catalogues (docs/i18n.md "How the catalogues reach a page"), generated as every
// Vite build starts (vite.config.js) into frontend/locales/islands/, which git ignores:
//  1. Lingui's experimental extractor (lingui.islands.config.js) crawls each island's imports and
//     writes the messages it can show as a template, frontend/locales/islands/<island>/messages.pot;
//  2. Lingui's catalogue API fills each template with the translations of the hand-written
//     frontend/locales/<locale>/messages.po, into <island>/<locale>.po (same ids: message and context).
// The hand-written catalogues are only read; scripts/i18n-check.sh checks them, not these. No
// tool beyond Node's packages (no gettext), so `make run` and the build need nothing more.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { getCatalogs } from "@lingui/cli/api";
import { getConfig } from "@lingui/conf";

const root = resolve(import.meta.dirname, "..");
const configPath = resolve(root, "lingui.islands.config.js");

rmSync(resolve(root, "frontend/locales/islands"), { recursive: true, force: true });
try {
  execFileSync(
    "npx",
    ["--no-install", "lingui", "extract-experimental", "--config", configPath, "--template", "--workers", "1"],
    { cwd: root, stdio: "pipe" },
  );
} catch (error) {
  process.stderr.write(`${error.stdout ?? ""}${error.stderr ?? ""}`);
  throw new Error("lingui extract-experimental failed: the islands' catalogues were not generated.");
}
rmSync(resolve(root, ".lingui"), { recursive: true, force: true }); // the extractor's scratch folder

const config = getConfig({ configPath });
// lingui.config.js's catalogue first (the hand-written ones), then one per island.
const [written, ...islands] = await getCatalogs(config);
const translations = await written.readAll();
for (const island of islands) {
  const template = await island.readTemplate();
  for (const locale of config.locales) {
    const messages = Object.fromEntries(
      Object.entries(template).map(([id, message]) => [
        id,
        { ...message, translation: translations[locale]?.[id]?.translation ?? "" },
      ]),
    );
    await island.write(locale, messages);
  }
}
