/**
 * check and diff of Notebook for the values read from pulumi's environment: a registry password and env values
 * named by a variable, never recorded. Apart from notebook.test.ts, whose rules need no environment.
 */
import { describe, expect, it } from "vitest";
import { resolveSettings } from "../../client/config";
import { validNotebookInputs } from "../support/fixtures";
import { diffNotebook } from "../../provider/notebook/diff";
import { checkNotebook, type NotebookInputs } from "../../provider/notebook/inputs";

const settings = resolveSettings((k) => (k === "aicp:userId" ? "USR-Abc123" : undefined), {});
const base: NotebookInputs = validNotebookInputs();

describe("registry password from the environment", () => {
  it("is read from the named variable, never recorded, and a rotation shows as an update", async () => {
    const { bodyOf } = await import("../../provider/notebook/inputs");
    const { recordImageSecret } = await import("../../provider/secrets");
    process.env.AICP_TEST_REGISTRY_PW = "first-pw";
    const news = { ...base, customImageSecret: { hasAuth: true, username: "robot", passwordFromEnv: "AICP_TEST_REGISTRY_PW" } } as NotebookInputs;
    expect(checkNotebook({}, news, settings).failures).toEqual([]);
    expect(bodyOf(news).customImageSecret).toEqual({ hasAuth: true, username: "robot", password: "first-pw" });
    const recorded = recordImageSecret({ hasAuth: true, username: "robot", password: "first-pw" });
    expect(JSON.stringify(recorded)).not.toContain("first-pw");
    const olds = { ...news, uuid: "nb-1", customImageSecret: recorded } as Record<string, unknown>;
    expect(diffNotebook(olds, news, "key")).toEqual({ updates: [], replaces: [] });
    process.env.AICP_TEST_REGISTRY_PW = "rotated-pw";
    expect(diffNotebook(olds, news, "key")).toEqual({ updates: ["customImageSecret"], replaces: [] });
    delete process.env.AICP_TEST_REGISTRY_PW;
    expect(checkNotebook({}, news, settings).failures.map((f) => f.property)).toContain("customImageSecret.passwordFromEnv");
  });
});

describe("Notebook envs given by valueFromEnv", () => {
  const variable = "AICP_TEST_ENV_VALUE_7f3a";
  const fromEnv = { ...base, envs: [{ name: "HF_TOKEN", valueFromEnv: variable }] } as unknown as NotebookInputs;

  it("sends the value the variable holds where pulumi runs, never the variable's name", async () => {
    process.env[variable] = "hf_from_the_environment";
    try {
      const { wireBody } = await import("../../provider/notebook/inputs");
      const checked = checkNotebook({}, fromEnv, settings);
      expect(checked.failures).toEqual([]);
      expect(wireBody(checked.inputs).envs).toEqual([{ name: "HF_TOKEN", value: "hf_from_the_environment" }]);
      // What the state records of the program: the variable's name, not its value.
      expect(JSON.stringify(checked.inputs)).not.toContain("hf_from_the_environment");
    } finally {
      delete process.env[variable];
    }
  });

  it("compares the variable's value with what the platform holds: the same is no change, another replaces", () => {
    const recorded = { ...base, envs: [{ name: "HF_TOKEN", value: "hf_1" }] };
    process.env[variable] = "hf_1";
    try {
      expect(diffNotebook(recorded, fromEnv)).toEqual({ updates: [], replaces: [] });
      process.env[variable] = "hf_2";
      expect(diffNotebook(recorded, fromEnv).replaces).toEqual(["envs"]);
    } finally {
      delete process.env[variable];
    }
  });

  it("refuses a variable not set, both forms, or neither, naming the env", () => {
    const reasons = (envs: unknown[]) => checkNotebook({}, { ...base, envs } as unknown as NotebookInputs, settings).failures;
    expect(reasons([{ name: "HF_TOKEN", valueFromEnv: variable }])).toEqual([
      {
        property: "envs[0].valueFromEnv",
        reason:
          "envs[0].valueFromEnv names AICP_TEST_ENV_VALUE_7f3a, which is not set where pulumi runs (the provider reads the value of env HF_TOKEN from its " +
          "environment): set it, e.g. from a secret of your pipeline",
      },
    ]);
    expect(
      reasons([
        { name: "A", value: "1" },
        { name: "B", value: "2", valueFromEnv: variable },
      ]),
    ).toEqual([{ property: "envs[1]", reason: "envs[1]: value and valueFromEnv are exclusive: give one" }]);
    expect(reasons([{ name: "A" }])).toEqual([{ property: "envs[0]", reason: "envs[0]: give value or valueFromEnv" }]);
  });
});
