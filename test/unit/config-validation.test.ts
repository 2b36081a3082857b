/**
 * Every `aicp:*` setting is checked once, when settings are resolved (configure
 * in the provider process, the program's functions, `pulumi-aicp doctor`): a
 * bad one is AICP_CONFIG naming the key, its environment variable and the rule,
 * and never echoes a credential.
 */
import { describe, expect, it } from "vitest";
import { AicpError } from "../../client/errors";
import { resolveRoutes } from "../../client/routes";
import { configKeys, createClient, resolveSettings } from "../../client/config";
import { configureFrom, currentSettings } from "../../provider/context";

const none = () => undefined;

/** The error resolveSettings throws for these environment variables; fails the test when it accepts them. */
function refusal(env: Record<string, string>): AicpError {
  let error: unknown;
  try {
    resolveSettings(none, env);
  } catch (e) {
    error = e;
  }
  expect(error, `accepted ${Object.keys(env).join(", ")}`).toBeInstanceOf(AicpError);
  expect((error as AicpError).code).toBe("AICP_CONFIG");
  return error as AicpError;
}

/** Asserts the refusal names the key and its variable, and returns the message. */
function refusedNaming(name: keyof typeof configKeys, env: Record<string, string>): string {
  const { message } = refusal(env);
  expect(message).toContain(configKeys[name].key);
  const entry = configKeys[name];
  expect(message).toContain("env" in entry ? entry.env : entry.key);
  return message;
}

describe("aicp:routes", () => {
  const routes = (value: string) => refusedNaming("routes", { AICP_ROUTES: value });

  it.each([
    ["null", "null"],
    ["an array", '["GET /resource/template"]'],
    ["a number", "5"],
    ["a string", '"GET /resource/template"'],
  ])("refuses JSON that is not an object: %s", (what, value) => {
    expect(routes(value)).toMatch(new RegExp(`must be a JSON object .*got ${what}`));
  });

  it.each([
    ["a number", '{"getResourceGroup": 5}', /getResourceGroup must be a string;.*got 5$/],
    ["null", '{"getResourceGroup": null}', /getResourceGroup must be a string;.*got null$/],
    ["an object", '{"getResourceGroup": {"path": "/rg/{rg_id}"}}', /getResourceGroup.* must be a string/],
  ])("refuses an entry that is %s, naming the operation", (_, value, rule) => {
    expect(routes(value)).toMatch(rule);
  });

  it("refuses unknown operations, including names every object inherits", () => {
    expect(routes('{"nope": "/x"}')).toMatch(/unknown operation 'nope'; known operations: .*getResourceGroup/);
    expect(routes('{"toString": "/x"}')).toMatch(/unknown operation 'toString'/);
    expect(routes('{"__proto__": "/x"}')).toMatch(/unknown operation '__proto__'/);
  });

  it("refuses a method other than GET, POST, PUT or DELETE", () => {
    expect(routes('{"listNotebooks": "FETCH /notebooks/namespaces/{namespace}/notebooks"}')).toMatch(/listNotebooks.*GET, POST, PUT or DELETE.*got 'FETCH/);
    expect(routes('{"listNotebooks": "get /notebooks/namespaces/{namespace}/notebooks"}')).toMatch(/listNotebooks.*GET, POST, PUT or DELETE/);
  });

  it.each([
    ["a query", "GET /resource/resource_group/{rg_id}?x=1", /'\?'/],
    ["a fragment at the end, which would cut the signature off the URL", "GET /resource/resource_group/{rg_id}#", /'#'/],
    ["whitespace", "GET /resource/ resource_group/{rg_id}", /whitespace/],
    ["a tab", "/resource/resource_group/\t{rg_id}", /whitespace/],
    ["a '..' segment", "/resource/../admin/{rg_id}", /'\.\.' segment/],
    ["a '.' segment", "/resource/./resource_group/{rg_id}", /'\.' segment/],
    ["no leading '/'", "GET resource/resource_group/{rg_id}", /start with '\/'/],
    ["an empty segment", "/resource//resource_group/{rg_id}", /empty segment/],
    ["a percent sign", "/resource/%2e%2e/{rg_id}", /may contain only/],
    ["a backslash", "/resource\\resource_group/{rg_id}", /may contain only/],
    ["a brace that is not a placeholder", "/resource/resource_group/{rg-id}", /placeholder/],
  ])("refuses a route path with %s", (_, spec, rule) => {
    const message = routes(JSON.stringify({ getResourceGroup: spec }));
    expect(message).toContain("getResourceGroup");
    expect(message).toMatch(rule);
  });

  it("refuses placeholders other than the default route's, naming the expected ones", () => {
    expect(routes('{"getResourceGroup": "GET /rg/{id}"}')).toMatch(/getResourceGroup.*\{rg_id\}.*it has \{id\}/);
    expect(routes('{"deleteResourceGroup": "DELETE /resource/resource_group"}')).toMatch(/deleteResourceGroup.*\{rg_id\}.*it has none/);
    expect(routes('{"listTemplates": "/resource/template/{rg_id}"}')).toMatch(/listTemplates.*no placeholder.*it has \{rg_id\}/);
    expect(routes('{"getResourceGroup": "/rg/{rg_id}/{rg_id}"}')).toMatch(/getResourceGroup.*\{rg_id\}/);
    expect(routes('{"listTrainingPods": "/trains/{namespace}/{train_name}/pods"}')).toMatch(/\{namespace\}, \{endpoint\}, \{train_name\}/);
  });

  it("accepts a well-formed override, in any placeholder order, and keeps it as given", () => {
    const overrides = {
      getResourceGroup: "/rg/{rg_id}",
      deleteResourceGroup: " POST /resource/resource_group/{rg_id}/delete ",
      listTrainingPods: "GET /pods/{train_name}/{endpoint}/{namespace}",
      listTemplates: "/v1/resource-template~list/",
    };
    expect(resolveSettings(none, { AICP_ROUTES: JSON.stringify(overrides) }).routes).toEqual(overrides);
    expect(resolveSettings(none, { AICP_ROUTES: "{}" }).routes).toEqual({});
  });

  it("is refused by the client's route table with the same rules, for programs that build a client themselves", () => {
    let error: unknown;
    try {
      resolveRoutes({ getResourceGroup: "GET /rg/{rg_id}#" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AicpError);
    expect((error as AicpError).code).toBe("AICP_CONFIG");
    expect((error as AicpError).message).toMatch(/aicp:routes.*getResourceGroup.*'#'/);
  });

  it("fails configure in the provider process, and every later call with it", () => {
    const source = (key: string) => (key === "aicp:routes" ? "null" : undefined);
    expect(() => configureFrom(source)).toThrow(/aicp:routes \(or AICP_ROUTES\) must be a JSON object/);
    expect(() => currentSettings()).toThrow(/aicp:routes \(or AICP_ROUTES\) must be a JSON object/);
  });
});

describe("aicp:pathPrefix", () => {
  it.each([
    ["a query", "/aicp?x=1", /'\?'/],
    ["a fragment", "/aicp#", /'#'/],
    ["whitespace", "/ai cp", /whitespace/],
    ["a '..' segment", "/qai/../admin", /'\.\.' segment/],
    ["a '.' segment", "/qai/./aicp", /'\.' segment/],
    ["no leading '/'", "aicp", /start with '\/'/],
    ["a placeholder", "/{namespace}", /may contain only/],
  ])("refuses a prefix with %s", (_, prefix, rule) => {
    const message = refusedNaming("pathPrefix", { AICP_PATH_PREFIX: prefix });
    expect(message).toMatch(/must be a path such as \/aicp/);
    expect(message).toMatch(rule);
  });

  it("accepts the documented prefixes, with or without a trailing slash", () => {
    for (const prefix of ["/aicp", "/qai/aicp", "/aicp/", "/"]) {
      expect(resolveSettings(none, { AICP_PATH_PREFIX: prefix }).pathPrefix).toBe(prefix);
    }
  });
});

describe("aicp:requestTimeoutSeconds", () => {
  it.each(["0", "-1", "abc", "30s", "0.001", "0.4", "601", "1e9", "Infinity"])("refuses %s, naming the bounds", (value) => {
    expect(refusedNaming("requestTimeoutSeconds", { AICP_REQUEST_TIMEOUT_SECONDS: value })).toMatch(new RegExp(`from 0\\.5 to 600, got '${value}'`));
  });

  it("accepts values within the bounds", () => {
    expect(resolveSettings(none, { AICP_REQUEST_TIMEOUT_SECONDS: "0.5" }).requestTimeoutMs).toBe(500);
    expect(resolveSettings(none, { AICP_REQUEST_TIMEOUT_SECONDS: "600" }).requestTimeoutMs).toBe(600_000);
    expect(resolveSettings(none, {}).requestTimeoutMs).toBe(30_000);
  });

  it("a fraction of a millisecond is rounded: the timers beneath take whole milliseconds", () => {
    expect(resolveSettings(none, { AICP_REQUEST_TIMEOUT_SECONDS: "2.0019999" }).requestTimeoutMs).toBe(2002);
  });
});

describe("aicp:baseUrl", () => {
  const password = "s3cr3t-Pa55";

  it("refuses a URL that carries credentials, without echoing them", () => {
    const message = refusedNaming("baseUrl", { AICP_BASE_URL: `https://alice:${password}@ai.coreshub.cn` });
    expect(message).toMatch(/must not carry credentials/);
    expect(message).not.toContain(password);
    expect(message).not.toContain("alice");
  });

  it.each([
    ["a '/' in the password", `https://alice:${password}/x@ai.coreshub.cn`],
    ["a space in the host", `https://alice:${password}@ai coreshub.cn`],
    ["a bad port", `https://alice:${password}@ai.coreshub.cn:port`],
  ])("refuses a URL that does not parse, with %s, without echoing the password", (_, baseUrl) => {
    const message = refusedNaming("baseUrl", { AICP_BASE_URL: baseUrl });
    expect(message).toMatch(/must be an absolute URL/);
    expect(message).not.toContain(password);
    expect(message).not.toContain("alice");
  });

  it("quotes a URL that does not parse when it cannot hold credentials", () => {
    expect(refusedNaming("baseUrl", { AICP_BASE_URL: "ai.coreshub.cn" })).toContain("got 'ai.coreshub.cn'");
  });

  it.each([
    ["a path", "https://ai.coreshub.cn/aicp", /path prefix .*aicp:pathPrefix/],
    ["a query", "https://ai.coreshub.cn/?token=hidden-token", /query/],
    ["a fragment", "https://ai.coreshub.cn/#frag", /fragment/],
  ])("refuses a URL with %s instead of dropping it", (_, baseUrl, rule) => {
    const message = refusedNaming("baseUrl", { AICP_BASE_URL: baseUrl });
    expect(message).toMatch(/must be an origin such as https:\/\/ai\.coreshub\.cn/);
    expect(message).toMatch(rule);
    expect(message).not.toContain("hidden-token");
  });

  it("names the variable when the scheme or plain http is refused", () => {
    expect(refusedNaming("baseUrl", { AICP_BASE_URL: "ftp://ai.coreshub.cn" })).toMatch(/https:\/\//);
    expect(refusedNaming("baseUrl", { AICP_BASE_URL: "http://api.example.com" })).toMatch(/allowInsecureHttp/);
  });

  it("accepts an origin with a trailing slash", () => {
    expect(resolveSettings(none, { AICP_BASE_URL: "https://ai.coreshub.cn/" }).baseUrl).toBe("https://ai.coreshub.cn");
  });
});

describe("the other settings", () => {
  it("refuses aicp:allowInsecureHttp other than true or false", () => {
    expect(refusedNaming("allowInsecureHttp", { AICP_ALLOW_INSECURE_HTTP: "yes" })).toMatch(/"true" or "false", got 'yes'/);
    expect(resolveSettings(none, { AICP_ALLOW_INSECURE_HTTP: "false" }).allowInsecureHttp).toBe(false);
  });

  it("refuses credentials with whitespace (a pasted newline), without echoing them", () => {
    const secret = "pasted-Secret-Value";
    const secretMessage = refusedNaming("secretAccessKey", { QY_SECRET_ACCESS_KEY: `${secret}\n` });
    expect(secretMessage).toMatch(/whitespace/);
    expect(secretMessage).not.toContain(secret);
    const keyMessage = refusedNaming("accessKeyId", { QY_ACCESS_KEY_ID: ` AKID${secret}` });
    expect(keyMessage).not.toContain(secret);
  });

  it("refuses a user id that cannot be a namespace", () => {
    expect(refusedNaming("userId", { CORESHUB_USER_ID: "usr a" })).toMatch(/whitespace/);
    expect(refusedNaming("userId", { CORESHUB_USER_ID: "../usr" })).toMatch(/'\/'/);
    expect(refusedNaming("userId", { CORESHUB_USER_ID: ".." })).toMatch(/'\.' or '\.\.'/);
  });

  it("keeps the checks of zone, signature body and platform time zone, naming key and variable", () => {
    expect(refusedNaming("zone", { AICP_ZONE: "xb3&limit=1" })).toMatch(/zone name such as xb3/);
    expect(refusedNaming("signatureBody", { AICP_SIGNATURE_BODY: "md5" })).toMatch(/"empty" or "body"/);
    expect(refusedNaming("platformTimeZone", { AICP_PLATFORM_TIME_ZONE: "Mars/Olympus" })).toMatch(/UTC or an offset/);
  });

  it("reads a bad value from stack config the same way, naming the key first", () => {
    const error = (() => {
      try {
        resolveSettings((key) => (key === "aicp:requestTimeoutSeconds" ? "100000" : undefined), {});
      } catch (e) {
        return e as AicpError;
      }
      return undefined;
    })();
    expect(error?.code).toBe("AICP_CONFIG");
    expect(error?.message).toMatch(/^aicp:requestTimeoutSeconds \(or AICP_REQUEST_TIMEOUT_SECONDS\)/);
  });
});

describe("missing credentials", () => {
  const messageOf = (env: Record<string, string>) => {
    try {
      createClient(resolveSettings(none, env));
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };

  it("name every key a first run has not set, so that one message lists them all", () => {
    const message = messageOf({});
    expect(message).toContain("missing AICP credentials: set aicp:accessKeyId (env QY_ACCESS_KEY_ID) and aicp:secretAccessKey (env QY_SECRET_ACCESS_KEY)");
    expect(message).toContain("not set either: aicp:userId (env CORESHUB_USER_ID) and aicp:zone (env AICP_ZONE)");
  });

  it("name only what is missing", () => {
    const message = messageOf({ QY_ACCESS_KEY_ID: "AKIDGIVEN0001", CORESHUB_USER_ID: "usr-1", AICP_ZONE: "xb3" });
    expect(message).toContain("set aicp:secretAccessKey (env QY_SECRET_ACCESS_KEY)");
    expect(message).not.toContain("not set either");
    expect(message).not.toContain("AKIDGIVEN0001");
  });
});
