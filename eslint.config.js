// ESLint for the TypeScript islands (make lint): typescript-eslint's recommended type-aware rules,
// the Rules of Hooks, and jsx-a11y's accessibility checks. Formatting is Prettier's (.prettierrc.json).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["static/", "node_modules/", "frontend/lib/api-schema.ts", "frontend/lib/rules.generated.ts"] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  reactHooks.configs.flat["recommended-latest"],
  jsxA11y.flatConfigs.recommended,
  {
    files: ["frontend/**/*.{ts,tsx}"],
    languageOptions: {
      globals: globals.browser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // React event handlers may be async (onSubmit={save}): React ignores what they return.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      // A wide table's scroll region is focusable (role="region", tabIndex 0) so the keyboard can scroll it.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["tabpanel", "region"], tags: [] }],
      // The islands load their data in effects (setLoading, fetch, setData). This React Compiler
      // rule asks for another design (a data layer or Suspense), a rewrite of every island.
      "react-hooks/set-state-in-effect": "off",
    },
  },
  {
    files: ["*.js", "*.config.{js,ts}"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
