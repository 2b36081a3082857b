// The few rules that catch real defects here: a promise
// nobody awaits (a request whose failure is lost, a wait that does not
// wait), `any` (it switched off the compiler where the wire meets the
// lifecycles), and code nothing uses. Type-aware, over the same files the
// compiler checks (tsconfig.test.json). Layout is Prettier's (`npm run format`).
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".cache/**",
      "sdk/types.generated.ts",
      "sdk/notebook.generated.ts",
      "sdks/nodejs/**",
      ".stryker-tmp/**",
      "reports/**",
      "**/*.js",
      "**/*.mjs",
      "**/*.cjs",
    ],
  },
  {
    files: ["**/*.ts", "**/*.mts"],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { project: "./tsconfig.test.json", tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      // Prettier (.prettierrc.json) wraps code at 160; this catches the strings and comments it cannot wrap.
      "max-len": ["error", { code: 160 }],
    },
  },
);
