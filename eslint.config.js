// ESLint for the TypeScript islands (make lint): typescript-eslint's recommended type-aware rules,
// the Rules of Hooks, and jsx-a11y's accessibility checks. Formatting is Prettier's (.prettierrc.json).
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import pluginLingui from "eslint-plugin-lingui";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The islands' words are Lingui messages (docs/i18n.md "How to translate an island"): a string a
// person reads (JSX text, aria-label, placeholder, title, alt, label, a toast) must be wrapped in
// t`...`, <Trans> or msg`...`. Every island is translated: a new word anywhere in frontend/ is marked.

// lingui/no-unlocalized-strings looks at every string, then leaves out what no one reads: class
// names, ids, test ids, input types and names, URLs and API paths (a single word with no capital
// or space), CSS values, keys of events and storage, the arguments of DOM and console calls.
const UNLOCALIZED = {
  // A single word with no capital (ids, paths, values), a CONSTANT's value, ISO times ("T12:00:00Z").
  ignore: ["^(?![A-Z])\\S+$", "^[A-Z0-9_-]+$", "^T\\d\\d:\\d\\d"],
  ignoreNames: [
    { regex: { pattern: "className|ClassName|class$", flags: "i" } },
    { regex: { pattern: "^(data-|aria-(describedby|labelledby|controls|live|current|haspopup|invalid|hidden))" } },
    { regex: { pattern: "(Id|Ids|Key|Name|Ref|Url|Path|Type|Variant|Mode|Role|Status)$" } },
    "id",
    "testId",
    "type",
    "name",
    "href",
    "src",
    "rel",
    "target",
    "method",
    "action",
    "role",
    "autoComplete",
    "autoCapitalize",
    "inputMode",
    "pattern",
    "variant",
    "key",
    "to",
    "mode",
    "style",
  ],
  ignoreFunctions: [
    "Error",
    "console.*",
    "*.getElementById",
    "*.querySelector",
    "*.querySelectorAll",
    "*.addEventListener",
    "*.removeEventListener",
    "*.dispatchEvent",
    "*.includes",
    "*.startsWith",
    "*.endsWith",
    "*.getItem",
    "*.setItem",
    "*.removeItem",
    "*.get",
    "*.set",
    "*.has",
    "*.append",
    "*.delete",
    "*.setAttribute",
    "*.getAttribute",
    "*.matchMedia",
    "*.toLocaleDateString",
    "*.toLocaleTimeString",
    "*.toLocaleString",
    "CustomEvent",
    "URLSearchParams",
    "URL",
    "RegExp",
    "api.*",
    "write.*",
    "fetch",
    "useRealtimeEvent",
    "subscribe",
    "Intl.*",
    // format.ts's alias of Lingui's plural macro (its own plural() is the English one).
    "pluralMessage",
  ],
  useTsTypes: true,
};

export default tseslint.config(
  {
    ignores: [
      "static/",
      "node_modules/",
      "frontend/lib/api-schema.ts",
      "frontend/lib/rules.generated.ts",
      "frontend/locales/",
    ],
  },
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
    files: ["frontend/**/*.{ts,tsx}"],
    ignores: ["frontend/**/*.test.{ts,tsx}", "frontend/test-setup.ts", "frontend/lib/test-*.tsx"],
    plugins: { lingui: pluginLingui },
    rules: {
      "lingui/no-unlocalized-strings": ["error", UNLOCALIZED],
      // A t`...` outside a function would be read once, before the page's language is active.
      "lingui/t-call-in-function": "error",
      "lingui/no-single-variables-to-translate": "error",
      "lingui/no-expression-in-message": "error",
      "lingui/no-single-tag-to-translate": "error",
      "lingui/no-trans-inside-trans": "error",
      // The rule above lets a single lowercase word pass (an id, a value), so "{n} minutes" in JSX
      // slipped through: a word of JSX text outside <Trans> is an error too.
      "no-restricted-syntax": [
        "error",
        {
          selector: "JSXText[value=/[A-Za-z]{2,}/]:not(JSXElement[openingElement.name.name='Trans'] JSXText)",
          message: "Words a person reads go in t`...` or <Trans> (docs/i18n.md).",
        },
      ],
    },
  },
  {
    files: ["*.js", "*.config.{js,ts}"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
);
