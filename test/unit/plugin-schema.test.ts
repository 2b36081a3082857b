/** The plugin's schema.json against what it derives from, and against the kinds' descriptions it must carry. */
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Notebook } from "../../sdk";
import { kindDescriptions, type KindDescription } from "../../client/wire";
import { buildSchema } from "../../plugin/schema-build";

const committed = JSON.parse(readFileSync("schema.json", "utf8")) as {
  version: string;
  logoUrl: string;
  types: Record<string, { type: string; enum?: Array<{ name: string; value: string }> }>;
  resources: Record<
    string,
    { properties: Record<string, { secret?: boolean }>; inputProperties: Record<string, { willReplaceOnChanges?: boolean; default?: unknown }> }
  >;
};

describe("schema.json", () => {
  it("is not stale: building it from the kinds' and functions' declarations changes nothing (npm run generate)", () => {
    expect(buildSchema()).toBe(readFileSync("schema.json", "utf8"));
  }, 60_000);

  it("names a logo the repository holds, as the registry asks", () => {
    expect(committed.logoUrl).toMatch(/^https:\/\/raw\.githubusercontent\.com\/.+\/main\/docs\/logo\.svg$/);
    expect(readFileSync("docs/logo.svg", "utf8")).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it("types each closed set of strings a program gives as an enum, never the platform's answers", () => {
    const values = (token: string) => committed.types[token]?.enum?.map((e) => e.value);
    // The sets docs/platform-api.md A4.2 gives a notebook's create.
    expect(values("aicp:index:NotebookServerType")).toEqual(["jupyter", "code_server", "rstudio"]);
    expect(values("aicp:index:NotebookChargeMode")).toEqual(["elastic", "monthly"]);
    expect(values("aicp:index:NotebookImageType")).toEqual(["official", "user", "custom"]);
    expect(values("aicp:index:ResourceTemplatesSpecType")).toEqual(["common", "share_gpu", "vgpu", "only_cpu"]);
    // A notebook's status (an answer) stays a string: the platform may answer a value no document lists.
    expect(JSON.stringify(committed.resources["aicp:index:Notebook"]!.properties.status)).toContain('"type":"string"');
  });

  it("has the package's version", () => {
    expect(committed.version).toBe((JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version);
  });

  it.each(Object.entries(kindDescriptions) as Array<[string, KindDescription]>)(
    "marks %s's replacing inputs, secret outputs and defaults as its description says",
    (kind, described) => {
      const spec = committed.resources[`aicp:index:${kind}`]!;
      const marked = (props: Record<string, object>, flag: string) =>
        Object.keys(props)
          .filter((k) => (props[k] as Record<string, unknown>)[flag] !== undefined)
          .sort();
      expect(marked(spec.inputProperties, "willReplaceOnChanges")).toEqual([...described.replace].sort());
      expect(marked(spec.properties, "secret")).toEqual([...described.secretOutputs].sort());
      expect(Object.keys(spec.properties).sort()).toEqual([...described.outputs].sort());
      expect(
        Object.fromEntries(
          Object.entries(spec.inputProperties)
            .filter(([, p]) => p.default !== undefined)
            .map(([k, p]) => [k, p.default]),
        ),
      ).toEqual(described.defaults);
      expect(Object.keys(spec.inputProperties).sort()).toEqual(
        [...described.inPlace, ...Object.keys(described.inPlaceWhen), ...described.replace, ...described.readAtCreateOnly].sort(),
      );
    },
  );

  it("the TypeScript SDK types a notebook's servers field by field, and never the password", () => {
    type Server = NonNullable<Parameters<Parameters<Notebook["servers"]["apply"]>[0]>[0]>[number];
    expectTypeOf<Server["url"]>().toEqualTypeOf<string | null | undefined>();
    // Only as one of the unknown keys a server may have, never typed.
    expectTypeOf<Server["password"]>().toBeUnknown();
  });
});
