// One entry per page island (frontend/islands/<page>.tsx); django-vite reads the manifest.
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const islandsDir = resolve(import.meta.dirname, "frontend/islands");
const input = Object.fromEntries(
  readdirSync(islandsDir)
    .filter((name) => name.endsWith(".tsx"))
    .map((name) => [name.replace(/\.tsx$/, ""), resolve(islandsDir, name)]),
);

export default defineConfig({
  plugins: [react()],
  base: "/static/dist/",
  root: import.meta.dirname,
  build: {
    outDir: "static/dist",
    emptyOutDir: true,
    manifest: "manifest.json",
    rollupOptions: { input },
  },
  server: { port: 5173, strictPort: true, origin: "http://127.0.0.1:5173" },
});
