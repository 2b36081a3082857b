/** The emulator's dialect switches: defaults, merging, the command-line form; and its reading of bare date-times. */
import { describe, expect, it } from "vitest";
import { DEFAULT_DIALECT, mergeDialect, parseDialectArg } from "../../emulator/dialect";
import { formatBare, parseDateTime } from "../../emulator/times";

describe("dialect", () => {
  it("defaults to the reading closest to the public evidence", () => {
    expect(DEFAULT_DIALECT).toEqual({
      prefixes: "aicp",
      absentOperations: [],
      signatureBody: "empty",
      zone: "required",
      counts: "page",
      totalSum: true,
      maxPageSize: 100,
      bareTimeZone: "UTC",
      singleWriteData: "docs",
      envsAsString: false,
      startFailed: "restart",
    });
  });

  it("merges a partial change and names every invalid field", () => {
    expect(mergeDialect(DEFAULT_DIALECT, { counts: "total", maxPageSize: null })).toMatchObject({ counts: "total", maxPageSize: null, prefixes: "aicp" });
    const bad = () => mergeDialect(DEFAULT_DIALECT, { zone: "sometimes", absentOperations: ["nope"], extra: 1 });
    for (const part of ["zone:", "absentOperations.0:", "extra: unknown dialect field"]) expect(bad).toThrow(part);
  });

  it("reads the command-line form key=value[,key=value] with typed values and '+'-joined operations", () => {
    expect(parseDialectArg("prefixes=both,totalSum=false,maxPageSize=null,absentOperations=getResourceGroup+deleteResourceGroup,bareTimeZone=+08:00")).toEqual({
      prefixes: "both",
      totalSum: false,
      maxPageSize: null,
      absentOperations: ["getResourceGroup", "deleteResourceGroup"],
      bareTimeZone: "+08:00",
    });
    expect(parseDialectArg("maxPageSize=50")).toEqual({ maxPageSize: 50 });
    expect(() => parseDialectArg("counts")).toThrow(/key=value/);
    expect(() => parseDialectArg("counts=maybe")).toThrow(/counts/);
  });
});

describe("bare date-times", () => {
  const instant = Date.UTC(2030, 0, 1, 18, 0, 0);

  it("are written without suffix in the dialect's zone", () => {
    expect(formatBare(instant, "UTC")).toBe("2030-01-01T18:00:00");
    expect(formatBare(instant, "+08:00")).toBe("2030-01-02T02:00:00");
  });

  it("are read in the dialect's zone when bare, as given when zoned", () => {
    expect(parseDateTime("2030-01-02T02:00:00", "+08:00")).toBe(instant);
    expect(parseDateTime("2030-01-02 02:00:00", "+08:00")).toBe(instant);
    expect(parseDateTime("2030-01-01T18:00:00", "UTC")).toBe(instant);
    expect(parseDateTime("2030-01-01T18:00:00Z", "+08:00")).toBe(instant);
    expect(parseDateTime("2030-01-02T02:00:00+0800", "UTC")).toBe(instant);
    expect(parseDateTime("not a time", "UTC")).toBeNaN();
  });
});
