import { describe, expect, it } from "vitest";
import { AicpError } from "../../client/errors";
import { defaultRoutes, fillPath, resolveRoutes } from "../../client/routes";
import { createClient, resolveSettings } from "../../client/config";

describe("routes", () => {
  it("encodes every path parameter as exactly one segment", () => {
    expect(fillPath(defaultRoutes.listTrainingPods.path, { namespace: "usr-a", endpoint: "tfjobs", train_name: "a/b c" })).toBe(
      "/trains/namespaces/usr-a/endpoints/tfjobs/trains/a%2Fb%20c/pods",
    );
    expect(fillPath("/x/{name}", { name: "训练" })).toBe("/x/%E8%AE%AD%E7%BB%83");
    expect(() => fillPath("/x/{name}", { name: ".." })).toThrow(/must not be '\.\.'/);
    expect(() => fillPath("/x/{name}", {})).toThrow(/'name' is required/);
  });

  it("marks undocumented routes as assumed and lets configuration override them", () => {
    expect(defaultRoutes.deleteResourceGroup.source).toBe("assumed");
    const table = resolveRoutes({ deleteResourceGroup: "POST /resource/resource_group/{rg_id}/delete", getResourceGroup: "/rg/{rg_id}" });
    expect(table.deleteResourceGroup).toEqual({ method: "POST", path: "/resource/resource_group/{rg_id}/delete", source: "configured" });
    expect(table.getResourceGroup.method).toBe("GET");
    expect(() => resolveRoutes({ nope: "/x" })).toThrow(/unknown operation 'nope'/);
    expect(() => resolveRoutes({ listNotebooks: "FETCH x" })).toThrow(/must look like/);
  });
});

describe("configuration", () => {
  const none = () => undefined;

  it("prefers stack config over environment over defaults", () => {
    const settings = resolveSettings((k) => (k === "aicp:baseUrl" ? "http://127.0.0.1:9" : undefined), { AICP_BASE_URL: "https://other", AICP_ZONE: "xb3" });
    expect(settings.baseUrl).toBe("http://127.0.0.1:9");
    expect(settings.zone).toBe("xb3");
    expect(resolveSettings(none, {}).baseUrl).toBe("https://ai.coreshub.cn");
  });

  it("leaves the unknowns of the platform unset unless configured, so the client learns them", () => {
    const learned = resolveSettings(none, {});
    expect([learned.pathPrefix, learned.signatureBody, learned.platformTimeZone]).toEqual([undefined, undefined, undefined]);
    const pinned = resolveSettings(none, { AICP_PATH_PREFIX: "/qai/aicp", AICP_SIGNATURE_BODY: "body", AICP_PLATFORM_TIME_ZONE: "+08:00" });
    expect([pinned.pathPrefix, pinned.signatureBody, pinned.platformTimeZone]).toEqual(["/qai/aicp", "body", "+08:00"]);
  });

  it("names the key and the rule of a malformed dialect setting", () => {
    expect(() => resolveSettings(none, { AICP_SIGNATURE_BODY: "md5" })).toThrow(/aicp:signatureBody .* must be "empty" or "body", got 'md5'/);
    expect(() => resolveSettings(none, { AICP_PLATFORM_TIME_ZONE: "Mars/Olympus" })).toThrow(
      /aicp:platformTimeZone .* must be UTC or an offset such as \+08:00/,
    );
    expect(() => resolveSettings(none, { AICP_PATH_PREFIX: "aicp?x=1" })).toThrow(/aicp:pathPrefix .* must be a path such as \/aicp/);
    expect(() => resolveSettings(none, { AICP_ZONE: "xb3&limit=1" })).toThrow(/aicp:zone .* must be a zone name such as xb3/);
  });

  it("names both the key and the variable when a credential is missing, before any request", () => {
    const settings = resolveSettings(none, { QY_ACCESS_KEY_ID: "AK" });
    let error: unknown;
    try {
      createClient(settings);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AicpError);
    expect((error as AicpError).code).toBe("AICP_CONFIG");
    expect((error as AicpError).message).toContain("aicp:secretAccessKey (env QY_SECRET_ACCESS_KEY)");
    expect((error as AicpError).message).not.toContain("aicp:accessKeyId (env");
  });

  it("refuses plain http to a host that is not loopback unless allowed", () => {
    expect(() => resolveSettings(none, { AICP_BASE_URL: "http://api.example.com" })).toThrow(/allowInsecureHttp/);
    expect(resolveSettings(none, { AICP_BASE_URL: "http://api.example.com", AICP_ALLOW_INSECURE_HTTP: "true" }).baseUrl).toBe("http://api.example.com");
    expect(resolveSettings(none, { AICP_BASE_URL: "http://localhost:8080" }).baseUrl).toBe("http://localhost:8080");
  });

  it("reads route overrides as JSON and rejects anything else", () => {
    expect(resolveSettings(none, { AICP_ROUTES: '{"getResourceGroup":"/rg/{rg_id}"}' }).routes).toEqual({ getResourceGroup: "/rg/{rg_id}" });
    expect(() => resolveSettings(none, { AICP_ROUTES: "nope" })).toThrow(/JSON object/);
  });
});
