// Lighthouse (mobile, its default simulated throttling) on each page, signed out and signed in:
// performance score, LCP, CLS and the page's script bytes. Run by bench/lighthouse.sh.
// Signed in: a fresh Chromium gets the session cookie before Lighthouse loads the page (as
// Lighthouse's docs show for authenticated pages, with Puppeteer), and storage reset is off so
// the cookie stays; each page still starts with an empty cache (a new browser profile each time).
import { mkdirSync, writeFileSync } from "node:fs";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const [base, outDir, ...only] = process.argv.slice(2);
// LIGHTHOUSE_LANGUAGE=es: the signed-out pages are asked for in that language (Accept-Language, as
// a browser set to Spanish asks); signed-in pages follow the account's own language.
const language = process.env.LIGHTHOUSE_LANGUAGE ?? "";
// Optional "role:/path" arguments measure only those (e.g. "admin:/admin" to rerun one page).
const wanted = (role, path) => only.length === 0 || only.includes(`${role}:${path}`);
const pages = {
  anonymous: ["/", "/login", "/privacy-policy", "/terms-of-service.html"],
  client: [
    "/dashboard",
    "/request-service",
    "/providers",
    "/messages",
    "/care-circle",
    "/calendar",
    "/settings",
    "/privacy-policy",
  ],
  provider: ["/dashboard", "/schedule", "/calendar", "/earnings", "/messages", "/settings"],
  admin: ["/admin", "/messages"],
};
const sessions = {
  client: process.env.SESSION_CLIENT,
  provider: process.env.SESSION_PROVIDER,
  admin: process.env.SESSION_ADMIN,
};

mkdirSync(outDir, { recursive: true });
const cell = (text, width) => String(text).padStart(width);
console.log(
  `${"role".padEnd(10)} ${"page".padEnd(28)} ${cell("performance", 11)} ${cell("LCP", 8)} ${cell("CLS", 7)} ${cell("JS (KB)", 8)}`,
);

for (const [role, paths] of Object.entries(pages)) {
  const session = role === "anonymous" ? "" : sessions[role];
  if (session === undefined || session === "") {
    if (role !== "anonymous") continue;
  }
  for (const path of paths.filter((path) => wanted(role, path))) {
    // Lighthouse now and then ends a run without an LCP (NO_LCP in its runtimeError): run it again.
    let row = "";
    for (let attempt = 1; attempt <= 3 && !row.startsWith(role); attempt++) {
      row = await measure(role, path, session);
    }
    console.log(row);
  }
}

/** One Lighthouse run of `path` as `role`: its row of the table, or why it failed. */
async function measure(role, path, session) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox"],
  });
  try {
    if (session) await browser.setCookie({ name: "sessionid", value: session, url: base, httpOnly: true });
    const port = Number(new URL(browser.wsEndpoint()).port);
    const result = await lighthouse(base + path, {
      port,
      output: "json",
      onlyCategories: ["performance"],
      disableStorageReset: Boolean(session),
      ...(language ? { extraHeaders: { "Accept-Language": language } } : {}),
      logLevel: "error",
    });
    const lhr = result.lhr;
    const a = lhr.audits;
    const lcp = a["largest-contentful-paint"].numericValue;
    if (lhr.runtimeError || lcp === undefined) return `failed: ${lhr.runtimeError?.code ?? "no LCP"} (${role} ${path})`;
    writeFileSync(`${outDir}/${(role + path).replace(/[^a-zA-Z0-9]/g, "_")}.json`, result.report);
    const scripts = (a["network-requests"].details?.items ?? [])
      .filter((item) => item.resourceType === "Script")
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
    const landed = lhr.finalDisplayedUrl !== lhr.requestedUrl ? ` -> ${new URL(lhr.finalDisplayedUrl).pathname}` : "";
    return (
      `${role.padEnd(10)} ${(path + landed).padEnd(28)} ${cell(Math.round(lhr.categories.performance.score * 100), 11)} ` +
      `${cell((lcp / 1000).toFixed(2) + " s", 8)} ` +
      `${cell(a["cumulative-layout-shift"].numericValue.toFixed(3), 7)} ${cell((scripts / 1024).toFixed(1), 8)}`
    );
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)} (${role} ${path})`;
  } finally {
    await browser.close();
  }
}
