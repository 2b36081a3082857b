/**
 * Properties of the case conversion (client/case.ts): names and whole values
 * round-trip between the wire's snake_case and the SDK's camelCase, and the
 * keys of free-form maps (labels) are never touched.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { camelToSnake, snakeToCamel, toCamel, toSnake } from "../../client/case";

/** A wire name: lower-case words of letters and digits joined by "_", every word after the first led by a letter. */
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const snakeName = fc.tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.array(word, { maxLength: 4 })).map(([head, rest]) => [head, ...rest].join("_"));
/** A camelCase name: a lower-case head, then words led by one capital. */
const camelName = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/), fc.array(fc.stringMatching(/^[A-Z][a-z0-9]{0,7}$/), { maxLength: 4 }))
  .map(([head, rest]) => head + rest.join(""));
const json = fc.jsonValue({ maxDepth: 2 });

describe("case conversion, for any name", () => {
  it("round-trips wire names through camelCase", () => {
    fc.assert(
      fc.property(snakeName, (name) => {
        expect(camelToSnake(snakeToCamel(name))).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it("round-trips camelCase names through the wire", () => {
    fc.assert(
      fc.property(camelName, (name) => {
        expect(snakeToCamel(camelToSnake(name))).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it("writes wire names with no capital letter, and camelCase names with no underscore before a letter or digit", () => {
    fc.assert(
      fc.property(camelName, snakeName, (camel, snake) => {
        expect(camelToSnake(camel)).toMatch(/^[^A-Z]*$/);
        expect(snakeToCamel(snake)).not.toMatch(/_[a-z0-9]/);
      }),
      { numRuns: 300 },
    );
  });
});

describe("case conversion, for any value", () => {
  /** An object schema with nested objects, a list of objects and a free-form map, as the wire schemas have. */
  const schema = z.looseObject({
    outer_field: z.looseObject({ inner_field: z.unknown() }).optional(),
    item_list: z.array(z.looseObject({ item_name: z.unknown() })).optional(),
    label_map: z.record(z.string(), z.string()).optional(),
  });

  const wireValue = fc.record(
    {
      outer_field: fc.dictionary(snakeName, json, { maxKeys: 3 }).map((extra) => ({ ...extra, inner_field: 1 })),
      item_list: fc.array(fc.record({ item_name: json }), { maxLength: 3 }),
      label_map: fc.dictionary(fc.string(), fc.string(), { maxKeys: 4 }),
      unknown_extra: json,
    },
    { requiredKeys: [] },
  );

  it("comes back from camelCase as it left the wire, free-form map keys untouched both ways", () => {
    fc.assert(
      fc.property(wireValue, (value) => {
        const camel = toCamel(schema, value) as Record<string, unknown>;
        expect(toSnake(schema, camel)).toEqual(value);
        if (value.label_map !== undefined) expect(camel.labelMap).toEqual(value.label_map);
        expect(Object.keys(camel).filter((k) => k.includes("_"))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
