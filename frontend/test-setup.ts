// Vitest: unmount what each test rendered and forget its DOM, so tests cannot see each other.
// Every test starts in English (lib/test-i18n.ts's activateForTest("es") switches one to Spanish).
import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach } from "vitest";
import { activateLocale } from "./lib/i18n";

beforeEach(async () => {
  document.documentElement.lang = "en";
  await activateLocale("en");
});

afterEach(() => {
  cleanup();
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  document.cookie.split(";").forEach((c) => {
    const name = c.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });
});
