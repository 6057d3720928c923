// Unit tests of frontend/lib and frontend/components (make vitest): jsdom, Testing Library.
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  test: {
    environment: "jsdom",
    include: ["frontend/**/*.test.{ts,tsx}"],
    setupFiles: ["frontend/test-setup.ts"],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
