// Vitest: unmount what each test rendered and forget its DOM, so tests cannot see each other.
// Every test starts in English (lib/test-i18n.ts's activateForTest("es") switches one to Spanish).
//
// The files of a worker share one jsdom and one module registry (vitest.config.ts, isolate: false):
// each file starts from a new registry, in English, so a module that reads the page's language
// when it loads (lib/rules.generated.ts) reads English, whatever the file before it set. The test
// file's own imports come after this; the hooks below import what they use when they run, to
// reach the same instances as the test file (Testing Library's list of mounted trees, Lingui's i18n).
import { afterEach, beforeEach, vi } from "vitest";

document.documentElement.lang = "en";
vi.resetModules();

// The page's socket (lib/realtime) never reaches a server here: a component that subscribes gets
// one that stays connecting, so no test starts lib/realtime's reconnect loop, whose timers would
// outlive the test and its file (and fire after the worker's jsdom is gone). A test of the socket
// stubs its own (lib/test-socket.tsx) and leaves it closed for good or open.
class SocketThatNeverConnects {
  onopen = null;
  onclose = null;
  onmessage = null;
  onerror = null;
  constructor(readonly url: string) {}
  send(): void {}
  close(): void {}
}

beforeEach(async () => {
  vi.stubGlobal("WebSocket", SocketThatNeverConnects);
  document.documentElement.lang = "en";
  const { activateLocale } = await import("./lib/i18n");
  await activateLocale("en");
});

afterEach(async () => {
  const { cleanup } = await import("@testing-library/react");
  cleanup();
  document.head.innerHTML = "";
  document.body.innerHTML = "";
  localStorage.clear();
  sessionStorage.clear();
  document.cookie.split(";").forEach((c) => {
    const name = c.split("=")[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });
});
