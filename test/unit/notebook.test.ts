/** check and diff of Notebook: every rule, no requests. */
import { describe, expect, it } from "vitest";
import { overlay } from "../../provider/notebook";
import { resolveSettings } from "../../client/config";
import { validNotebookInputs } from "../support/fixtures";
import { coversSubset, diffNotebook } from "../../provider/notebook/diff";
import { checkNotebook, type NotebookInputs } from "../../provider/notebook/inputs";
import { sameInstant } from "../../provider/notebook/times";
import { ofDerivedName } from "../../provider/inputs";

const settings = resolveSettings((k) => (k === "aicp:userId" ? "USR-Abc123" : undefined), {});
const base: NotebookInputs = validNotebookInputs();

function failures(news: Partial<NotebookInputs>) {
  return checkNotebook({}, { ...base, ...news } as NotebookInputs, settings).failures.map((f) => f.property);
}

describe("Notebook check", () => {
  it("defaults user id and namespace from aicp:userId, the namespace lower-cased, and auto-names", () => {
    const { inputs, failures } = checkNotebook({}, base, settings);
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ userId: "USR-Abc123", namespace: "usr-abc123" });
    expect(inputs.name).toMatch(/^research-[0-9a-f]{7}$/);
  });

  it("says a derived name is too long in terms of the resource name and `name`, which the program wrote", () => {
    const logicalName = "n".repeat(115);
    const { failures } = checkNotebook({}, { ...base, logicalName, autoNameSuffix: "0a1b2c-3d4e5f6" }, settings);
    expect(failures).toEqual([
      {
        property: "name",
        reason:
          `name must be at most 128 characters: the name was derived from the resource name '${logicalName}' and a 15-character suffix ` +
          "(130 characters in all); shorten the resource name, or set `name`",
      },
    ]);
    expect(checkNotebook({}, { ...base, name: "n".repeat(130) }, settings).failures).toEqual([
      { property: "name", reason: "name must be at most 128 characters" },
    ]);
    // A name kept from the state (a resource renamed by alias) is not the resource name's: shortening that would not change it.
    const refused = { property: "name", reason: "name must be at most 128 characters" };
    expect(ofDerivedName(refused, { name: "k".repeat(130), autoNamed: true, autoNameSuffix: "0a1b2c-3d4e5f6" }, "renamed")).toEqual(refused);
  });

  it("asks for a user id when none is configured, once: the namespace, which defaults from it, is not asked for too", () => {
    const noUser = resolveSettings(() => undefined, {});
    const failures = checkNotebook({}, base, noUser).failures;
    expect(failures).toEqual([{ property: "userId", reason: "userId is required: pass it, or set aicp:userId (env CORESHUB_USER_ID) to default it" }]);
    // A userId given with no aicp:userId leaves only the namespace to ask for, naming what it defaults from.
    const namespace = checkNotebook({}, { ...base, userId: "usr-given" }, noUser).failures;
    expect(namespace.map((f) => f.property)).toEqual(["namespace"]);
    expect(namespace[0]!.reason).toContain("aicp:userId");
    // A namespace the program gives is checked whatever the user id: its own rule is reported with the missing user id.
    const given = checkNotebook({}, { ...base, namespace: "team/a" }, noUser).failures.map((f) => f.property);
    expect(given).toEqual(["userId", "namespace"]);
  });

  it("reports every spec rule against the camelCase property path", () => {
    expect(failures({ duration: 7200 })).toEqual(["duration"]);
    expect(failures({ chargeMode: "monthly", duration: 61 })).toEqual(["duration"]);
    expect(failures({ chargeMode: "hourly" as "elastic" })).toEqual(["chargeMode"]);
    expect(failures({ serverType: "vscode" as "jupyter" })).toEqual(["serverType"]);
    expect(failures({ imageType: "private" as "official" })).toEqual(["imageType"]);
    expect(failures({ image: "" })).toEqual(["image"]);
    expect(failures({ replicaSpecs: { customGpuList: ["0", "0"] } })).toEqual(["replicaSpecs.customGpuList"]);
    expect(failures({ customImageSecret: { hasAuth: true } })).toEqual(["customImageSecret.username", "customImageSecret.password"]);
    expect(failures({ volumeSpecs: [{ fileSet: "f", mountPath: "data", volumeType: "pfs" }] })).toEqual(["volumeSpecs[0].mountPath"]);
    expect(failures({ volumeSpecs: [{ fileSet: "f", mountPath: "/d", volumeType: "pfs", permission: "rx" as "ro" }] })).toEqual(["volumeSpecs[0].permission"]);
    expect(failures({ namespace: "../x" })).toEqual(["namespace"]);
    expect(failures({ autoRenew: 2 as 1 })).toEqual(["autoRenew"]);
    expect(failures({ stopTime: "tomorrow" })).toEqual(["stopTime"]);
    // A zone no place uses, or minutes past 59: neither the platform's reading nor the guardrails' is known.
    expect(failures({ stopTime: "2099-12-31T00:00:00+15:00" })).toEqual(["stopTime"]);
    expect(failures({ autoDeleteTime: "2099-12-31T00:00:00+05:60" })).toEqual(["autoDeleteTime"]);
    expect(failures({ stopTime: "2099-12-31T00:00:00+14:00", autoDeleteTime: "2099-12-31T00:00:00-0930" })).toEqual([]);
  });

  it("checks the provider's own arguments", () => {
    expect(failures({ desiredState: "Paused" as "Running" })).toEqual(["desiredState"]);
    expect(failures({ waitForReady: "yes" as unknown as boolean })).toEqual(["waitForReady"]);
    expect(failures({ readyTimeoutSeconds: 0 })).toEqual(["readyTimeoutSeconds"]);
    expect(failures({ imagee: "x" } as Partial<NotebookInputs>)).toEqual(["imagee"]);
  });

  it("names each failure with the rule it breaks", () => {
    const result = checkNotebook({}, { ...base, duration: 1 }, settings);
    expect(result.failures[0]!.reason).toBe("duration must be 3600 when chargeMode is elastic");
  });
});

describe("Notebook diff", () => {
  const { inputs } = checkNotebook({}, base, settings);
  // Outputs as the platform returns them: extra fields, times without a zone.
  const olds = {
    ...inputs,
    uuid: "nb-1",
    status: "Running",
    stopTime: "2030-01-01T18:00:00",
    replicaSpecs: { id: 7, replicas: 1, specs: "sku-1", customGpu: 1, notebookUuid: "nb-1" },
  };

  it("sees no change for the same inputs, whatever the platform added", () => {
    expect(diffNotebook(olds, { ...inputs, stopTime: "2030-01-01T18:00:00Z" })).toEqual({ updates: [], replaces: [] });
  });

  it("updates in place: stop time, auto-delete time, image, image type, registry secret, desired state, wait settings", () => {
    const cases: Array<[Partial<NotebookInputs>, string]> = [
      [{ stopTime: "2030-01-02T18:00:00Z" }, "stopTime"],
      [{ autoDeleteTime: "2030-02-01T00:00:00Z" }, "autoDeleteTime"],
      [{ image: "jupyter:2" }, "image"],
      [{ imageType: "user" }, "imageType"],
      [{ customImageSecret: { hasAuth: true, username: "u", password: "p" } }, "customImageSecret"],
      [{ desiredState: "Stopped" }, "desiredState"],
      [{ readyTimeoutSeconds: 60 }, "readyTimeoutSeconds"],
    ];
    for (const [change, key] of cases) expect(diffNotebook(olds, { ...inputs, ...change })).toEqual({ updates: [key], replaces: [] });
  });

  it("resizes in place when the new replica spec names a sku, else replaces", () => {
    expect(diffNotebook(olds, { ...inputs, replicaSpecs: { specs: "sku-2", customGpu: 2 } })).toEqual({ updates: ["replicaSpecs"], replaces: [] });
    expect(diffNotebook(olds, { ...inputs, replicaSpecs: { customGpu: 2 } })).toEqual({ updates: [], replaces: ["replicaSpecs"] });
  });

  it("replaces on any other change, naming the property", () => {
    for (const key of ["serverType", "name", "namespace", "chargeMode", "pip", "volumeSpecs", "envs"] as const) {
      const value =
        key === "volumeSpecs"
          ? [{ fileSet: "f", mountPath: "/d", volumeType: "pfs" }]
          : key === "envs"
            ? [{ name: "A", value: "1" }]
            : key === "serverType"
              ? "rstudio"
              : key === "chargeMode"
                ? "monthly"
                : "changed";
      expect(diffNotebook(olds, { ...inputs, [key]: value } as NotebookInputs).replaces).toEqual([key]);
    }
  });

  it("ignores an optional input the user left out", () => {
    const { stopTime: _s, ...withoutStopTime } = inputs as NotebookInputs & { stopTime?: string };
    expect(diffNotebook(olds, withoutStopTime)).toEqual({ updates: [], replaces: [] });
  });
});

describe("comparison helpers", () => {
  it("compares date-times as instants, a missing zone meaning UTC", () => {
    expect(sameInstant("2030-01-01T18:00:00", "2030-01-01T18:00:00Z")).toBe(true);
    expect(sameInstant("2030-01-01 18:00:00", "2030-01-01T19:00:00+01:00")).toBe(true);
    expect(sameInstant("2030-01-01T18:00:00", "2030-01-01T18:00:01Z")).toBe(false);
  });

  it("compares only the fields the user set", () => {
    expect(coversSubset({ a: 1, b: 2 }, { a: 1 })).toBe(true);
    expect(coversSubset({ a: 1 }, { a: 2 })).toBe(false);
    expect(coversSubset([{ a: 1, x: 0 }], [{ a: 1 }])).toBe(true);
    expect(coversSubset([{ a: 1 }], [{ a: 1 }, { a: 2 }])).toBe(false);
  });
});

describe("Notebook check reports every broken rule at once", () => {
  it("lists a cross-field rule together with a type error elsewhere", () => {
    const props = checkNotebook({}, { ...base, duration: 5, image: "", customImageSecret: { hasAuth: true } }, settings).failures.map((f) => f.property);
    expect(props).toEqual(expect.arrayContaining(["duration", "image", "customImageSecret.username", "customImageSecret.password"]));
  });
});

describe("Notebook check during preview", () => {
  const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
  it("does not fail on values that are not known yet", async () => {
    const { check } = await import("../../provider/notebook");
    const { configureFrom } = await import("../../provider/context");
    configureFrom((k) => (k === "aicp:userId" ? "usr-a" : undefined));
    const result = await check({}, { ...base, replicaSpecs: unknown as unknown as NotebookInputs["replicaSpecs"], stopTime: unknown });
    expect(result.failures).toBeUndefined();
    const partial = await check({}, { ...base, replicaSpecs: { specs: unknown, customGpu: unknown as unknown as number }, duration: 5 });
    expect(partial.failures!.map((f) => f.property)).toEqual(["duration"]);
  });

  it("names a misspelled nested property as the user wrote it", () => {
    const props = checkNotebook({}, { ...base, replicaSpecs: { specs: "s", customGPU: 1 } as NotebookInputs["replicaSpecs"] }, settings).failures;
    expect(props.map((f) => f.property)).toEqual(["replicaSpecs.customGPU"]);
  });
});

describe("platform answers in unexpected forms (platform-api B5)", () => {
  it("never show as a change: the program's value stands wherever the platform's differs in type", () => {
    const inputs = validNotebookInputs({
      replicaSpecs: { specs: "sku-1", customCpu: 4, customGpuList: ["0", "1"] },
      volumeSpecs: [{ fileSet: "data", mountPath: "/data", volumeType: "pfs", quota: 10 }],
      envs: [{ name: "MODE", value: "debug" }],
    });
    const live: Record<string, unknown> = {
      replicaSpecs: { specs: "sku-1", customCpu: "4C", customGpuList: "0,1", customGpuMemory: 80 },
      volumeSpecs: [{ fileSet: "data", mountPath: "/data", volumeType: "pfs", quota: "10Gi", pvcName: "pvc-1" }],
      envs: "MODE=debug",
    };
    const recorded = Object.fromEntries(Object.entries(live).map(([k, v]) => [k, overlay((inputs as unknown as Record<string, unknown>)[k], v)]));
    expect(diffNotebook({ ...inputs, ...recorded }, inputs)).toEqual({ updates: [], replaces: [] });
    // What the platform added, in whatever form, is kept.
    expect(recorded.replicaSpecs).toMatchObject({ customGpuMemory: 80 });
    expect((recorded.volumeSpecs as Array<Record<string, unknown>>)[0]).toMatchObject({ pvcName: "pvc-1", quota: 10 });
  });

  it("still shows a real change of the same type", () => {
    const inputs = validNotebookInputs({ replicaSpecs: { specs: "sku-1", customCpu: 4 } });
    const recorded = overlay(inputs.replicaSpecs, { specs: "sku-1", customCpu: 8 });
    expect(diffNotebook({ ...inputs, replicaSpecs: recorded }, inputs).updates).toEqual(["replicaSpecs"]);
  });

  it("a null the outputs recorded where nothing was set never hides the platform's value (a console's auto-delete time)", () => {
    expect(overlay(null, "2031-03-04T05:06:07Z")).toBe("2031-03-04T05:06:07Z");
    expect(overlay({ a: null }, { a: "x" })).toEqual({ a: "x" });
  });
});

describe("the order of what check and diff report (as earlier versions did)", () => {
  it("check names the program's fields first, adoptId last", () => {
    const failures = (news: Partial<NotebookInputs>) => checkNotebook({}, { ...base, ...news } as NotebookInputs, settings).failures.map((f) => f.property);
    expect(failures({ adoptId: 5, stopTime: "2000-01-01T00:00:00Z" } as never)).toEqual(["stopTime", "adoptId"]);
    expect(failures({ adoptId: "", envs: [{ name: "PULUMI_AICP_MARK", value: "x" }], waitForReady: "yes" } as never)).toEqual([
      "waitForReady",
      "envs",
      "adoptId",
    ]);
  });

  it("diff lists the create request's fields in its order, then the provider's own: the state, then what is only recorded", () => {
    const olds = { ...base, stopTime: "2031-01-01T00:00:00Z", desiredState: "Running", readyTimeoutSeconds: 600, waitForReady: true } as Record<
      string,
      unknown
    >;
    const news = {
      ...base,
      stopTime: "2032-01-01T00:00:00Z",
      desiredState: "Stopped",
      readyTimeoutSeconds: 900,
      waitForReady: false,
      image: "jupyter:9",
    } as NotebookInputs;
    expect(diffNotebook(olds, news).updates).toEqual(["image", "stopTime", "desiredState", "waitForReady", "readyTimeoutSeconds"]);
  });
});

describe("Notebook check names the values a program may give", () => {
  it("quotes an enum's values as the program writes them: code_server, never codeServer", () => {
    const { failures: found } = checkNotebook({}, { ...base, serverType: "vscode" } as unknown as NotebookInputs, settings);
    const reason = found.find((f) => f.property === "serverType")?.reason ?? "";
    expect(reason).toContain('"code_server"');
    expect(reason).not.toContain("codeServer");
  });
});

describe("Notebook check: a create request over 1 MiB", () => {
  it("is reported against the field that makes it large, with its size", () => {
    const envs = Array.from({ length: 20 }, (_, i) => ({ name: `VAR_${i}`, value: "x".repeat(60_000) }));
    const { failures: found } = checkNotebook({}, { ...base, envs }, settings);
    const failure = found.find((f) => f.reason.includes("1 MiB"));
    expect(failure?.property).toBe("envs");
    expect(failure?.reason).toMatch(/envs holds 1,20\d,\d{3} bytes/);
  });
});
