/**
 * Each resource kind's one description (client/wire/index.ts) against what
 * does not import it: the SDK's declared arguments (read by the TypeScript
 * compiler from the source), docs/resources.md's tables, and the diff the provider
 * computes field by field.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { kindDescriptions, type KindDescription } from "../../client/wire";
import { diffNotebook } from "../../provider/notebook/diff";
import type { NotebookInputs } from "../../provider/notebook/inputs";
import * as resourceGroup from "../../provider/resource-group";
import { declaredKeys, sdkFileOf } from "../support/declared-keys";
import { validNotebookInputs } from "../support/fixtures";
import { readDoc } from "../support/user-docs";

const resourcesPage = readDoc("docs/resources.md");
const sorted = (names: Iterable<string>) => [...names].sort();
const args = (kind: keyof typeof kindDescriptions) => declaredKeys(resolve(sdkFileOf(kind)), `${kind}Args`);

describe.each(Object.entries(kindDescriptions) as Array<[keyof typeof kindDescriptions, KindDescription]>)("the %s description", (kind, description) => {
  const { inPlace, inPlaceWhen, replace, readAtCreateOnly, defaults, outputs, secretOutputs } = description;
  const conditional = Object.keys(inPlaceWhen);

  it("sorts every argument the SDK declares into exactly one way a change applies", () => {
    const all = [...inPlace, ...conditional, ...replace, ...readAtCreateOnly];
    expect(new Set(all).size, `a field in two lists: ${all.join(", ")}`).toBe(all.length);
    expect(sorted(all)).toEqual(args(kind));
  });

  it("gives defaults, outputs and secrets only for fields it has", () => {
    for (const key of Object.keys(defaults)) expect(args(kind)).toContain(key);
    for (const key of [...inPlace, ...conditional, ...replace]) expect(outputs).toContain(key);
    for (const key of readAtCreateOnly) expect(outputs).not.toContain(key);
    for (const key of secretOutputs) expect(outputs).toContain(key);
  });
});

/** The rows of the first Markdown table after `heading`: each row's cells. */
function tableAfter(heading: string): string[][] {
  const from = resourcesPage.indexOf(heading);
  expect(from, `docs/resources.md has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const lines = resourcesPage.slice(from).split("\n");
  const start = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const codeNames = (cell: string) => [...cell.matchAll(/`(\w+)`/g)].map((m) => m[1]!);

describe("docs/resources.md says what the descriptions say", () => {
  it.each(Object.keys(kindDescriptions))("%s: its section names every field a program sets", (kind) => {
    const heading = `## \`${kind}\``;
    const from = resourcesPage.indexOf(heading);
    expect(from, `docs/resources.md has no "${heading}"`).toBeGreaterThanOrEqual(0);
    const next = resourcesPage.indexOf("\n## ", from + heading.length);
    const section = resourcesPage.slice(from, next < 0 ? undefined : next);
    const named = new Set(codeNames(section));
    const fields = Object.keys(kindDescriptions[kind as keyof typeof kindDescriptions].declaration.inputs);
    expect(fields.filter((field) => !named.has(field))).toEqual([]);
  });

  it("ResourceGroup: the inputs table marks each field in place, replacing, or read at create, with its default", () => {
    const group = kindDescriptions.ResourceGroup;
    const rows = tableAfter("## `ResourceGroup`").map(([name, , notes]) => [codeNames(name!)[0]!, notes!] as const);
    expect(sorted(rows.filter(([, notes]) => notes.includes("**Replaces.**")).map(([name]) => name))).toEqual(sorted(group.replace));
    expect(sorted(rows.filter(([, notes]) => notes.includes("In place.")).map(([name]) => name))).toEqual(sorted(group.inPlace));
    expect(sorted(rows.filter(([, notes]) => !/In place\.|\*\*Replaces\.\*\*/.test(notes)).map(([name]) => name))).toEqual(sorted(group.readAtCreateOnly));
    for (const [key, value] of Object.entries(group.defaults)) {
      const notes = rows.find(([name]) => name === key)?.[1] ?? "";
      expect(notes).toContain(typeof value === "string" ? `Default \`${JSON.stringify(value)}\`` : `Default ${String(value)}`);
    }
  });

  it("Notebook: the changes table names exactly the fields that change in place, and the provider arguments their defaults", () => {
    const nb = kindDescriptions.Notebook;
    const rows = tableAfter("**What changes in place, what replaces**");
    // A row names the fields, then perhaps a condition ("`replicaSpecs` with a sku in `specs`").
    const inPlaceRows = rows.filter(([, effect]) => /in place/.test(effect!) && !/^replacement/.test(effect!));
    expect(sorted(new Set(inPlaceRows.flatMap(([change]) => codeNames(change!.split(" with ")[0]!))))).toEqual(
      sorted([...nb.inPlace, ...Object.keys(nb.inPlaceWhen)]),
    );
    expect(rows.filter(([, effect]) => /^replacement/.test(effect!)).map(([change]) => change)).toEqual(["any other field, changed or removed"]);
    for (const [key, value] of Object.entries(nb.defaults)) {
      const said = new RegExp("`" + key + "` \\(([^)]*)\\)").exec(resourcesPage)?.[1] ?? "";
      expect(said, key).toMatch(/default/);
      expect(said, key).toContain(String(value));
    }
  });
});

describe("the provider's diff follows the descriptions", () => {
  const base = validNotebookInputs({ logicalName: "kind", autoNameSuffix: "abc1234", stopTime: "2031-01-01T00:00:00Z" });
  /** A different value of the same type for `key`. */
  const changed = (key: string, value: unknown): unknown =>
    typeof value === "string"
      ? key.endsWith("Time")
        ? "2032-02-02T00:00:00Z"
        : `${value}-changed`
      : typeof value === "number"
        ? value + 1
        : typeof value === "boolean"
          ? !value
          : Array.isArray(value)
            ? [...value, ...value]
            : { ...(value as object), customCpu: 99 };

  it("Notebook: a change of each field the test program sets is an update or a replacement as described", () => {
    const nb: KindDescription = kindDescriptions.Notebook;
    const inputs = { ...base, desiredState: "Running", waitForReady: true, readyTimeoutSeconds: 600 } as NotebookInputs;
    const olds = { ...inputs } as Record<string, unknown>;
    const set = Object.entries(inputs).filter(([key]) => [...nb.inPlace, ...nb.replace].includes(key));
    expect(set.length).toBeGreaterThan(8);
    for (const [key, value] of set) {
      if (key === "desiredState") continue; // two values only, both in place: covered by the update cases
      const diff = diffNotebook(olds, { ...inputs, [key]: changed(key, value) } as NotebookInputs);
      expect(nb.inPlace.includes(key) ? diff.updates : diff.replaces, key).toEqual([key]);
    }
    // replicaSpecs: in place when it names a sku, replacing otherwise.
    expect(diffNotebook(olds, { ...inputs, replicaSpecs: { specs: "sku-2", customCpu: 4 } } as NotebookInputs).updates).toEqual(["replicaSpecs"]);
    expect(diffNotebook(olds, { ...inputs, replicaSpecs: { templateId: 7 } } as NotebookInputs).replaces).toEqual(["replicaSpecs"]);
  });

  it("ResourceGroup: a change of each field is an update or a replacement as described", async () => {
    const group: KindDescription = kindDescriptions.ResourceGroup;
    const inputs = { name: "g", description: "d", skuId: "sku-1", podTypes: ["job"], customizeEnable: false };
    for (const [key, value] of Object.entries(inputs)) {
      const news = { ...inputs, [key]: key === "podTypes" ? ["job", "infer"] : changed(key, value) };
      const diff = resourceGroup.plannedGroupDiff("rg-1", inputs as never, news as never);
      expect(diff.changes, key).toBe(true);
      expect(diff.replaces ?? [], key).toEqual(group.replace.includes(key) ? [key] : []);
    }
  });
});
