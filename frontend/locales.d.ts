// A Lingui catalogue (frontend/locales/<locale>/messages.po), compiled by @lingui/vite-plugin.
declare module "*.po" {
  import type { Messages } from "@lingui/core";
  export const messages: Messages;
}
