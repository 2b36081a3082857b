/**
 * The provider plugin's gRPC service: Pulumi's resource provider protocol
 * over the same lifecycles the dynamic resources use (provider/index.ts), so
 * programs in every language reach the platform through one implementation.
 * What the protocol adds is here: the provider's own configuration
 * (CheckConfig, DiffConfig, Configure with explicit provider instances), the
 * identity the TypeScript SDK would add to inputs (identity.ts), a detailed
 * diff, import through Read, secrets (values.ts), functions (Invoke) and
 * the schema.
 */
import type * as grpcTypes from "@grpc/grpc-js";
import { configKeys, resolveSettings } from "../client/config";
import { AicpError } from "../client/errors";
import { kindDescriptions, type KindDescription } from "../client/wire";
import { cancelNow } from "../provider/cancellation";
import { engineFailure } from "../provider/check-failures";
import { configureFrom } from "../provider/context";
import type { DiffWithProperties } from "../provider/diff-result";
import { functions, type FunctionName } from "./functions";
import { emptyProto, grpc, pluginProto, provider as proto, toJson, toStruct } from "./grpc";
import { deletesFirst } from "../provider/create-journal";
import { newStackIdentity, stackIdentityOf } from "../provider/identity";
import { autonamingOf, engineDeletesFirst, namedBy } from "./autonaming";
import { identityOf, stackMarkKey } from "./identity";
import { programInputsOf } from "./import";
import { boundedBy } from "./timeouts";
import { answered, configSource, inputsAnswered, kindOf, notImplemented, operation, secretKeys, topKeysOf, unary } from "./calls";
import { packageName, pluginVersion, schemaText } from "./schema";
import { reveal, revealInputs, unknownValue, withSecrets } from "./values";

let stackMark = newStackIdentity();

/** The service implementation, one per plugin process (one process per provider instance). */
export const providerServer: grpcTypes.UntypedServiceImplementation = {
  getPluginInfo: unary(async () => new pluginProto.PluginInfo().setVersion(pluginVersion)),
  getSchema: unary(async (request: InstanceType<typeof proto.GetSchemaRequest>) => {
    if (request.getVersion() !== 0) throw new Error(`unsupported schema version ${request.getVersion()}`);
    return new proto.GetSchemaResponse().setSchema(schemaText());
  }),
  attach: unary(async () => new emptyProto.Empty()),
  cancel: unary(async () => {
    cancelNow();
    return new emptyProto.Empty();
  }),
  getMapping: unary(async () => new proto.GetMappingResponse()),
  getMappings: unary(async () => new proto.GetMappingsResponse()),
  handshake: notImplemented("Handshake"),
  parameterize: notImplemented("Parameterize"),
  construct: notImplemented("Construct"),
  call: notImplemented("Call"),
  list: (call: grpcTypes.ServerWritableStream<unknown, unknown>) => call.emit("error", { code: grpc.status.UNIMPLEMENTED, details: "List is not implemented" }),

  // The provider instance's own inputs: the stack's aicp:* config (default provider) or a program's arguments.
  checkConfig: unary(async (request: InstanceType<typeof proto.CheckRequest>) => {
    const olds = reveal(toJson(request.getOlds())) as Record<string, unknown>;
    const news = toJson(request.getNews());
    revealInputs(news);
    // A value a preview does not know yet (another resource's output) pins nothing.
    const given = (props: Record<string, unknown>) => {
      const value = props[stackMarkKey];
      return typeof value === "string" && value !== "" && value !== unknownValue ? value : undefined;
    };
    const recorded = given(olds);
    const pinned = given(reveal(news) as Record<string, unknown>);
    const identity = stackIdentityOf(recorded, pinned);
    const inputs = { ...news, [stackMarkKey]: "value" in identity ? identity.value : recorded };
    // The key is secret in the recorded provider state even where a program passed it in plain text.
    const response = new proto.CheckResponse().setInputs(
      toStruct(withSecrets(reveal(inputs) as Record<string, unknown>, [...topKeysOf(secretKeys(news)), "secretAccessKey"])),
    );
    const plain = reveal(inputs) as Record<string, unknown>;
    if ("problem" in identity) response.setFailuresList([new proto.CheckFailure().setProperty(stackMarkKey).setReason(identity.problem)]);
    else if (!Object.values(plain).includes(unknownValue)) {
      try {
        // The settings as given: the form of a new pin is checked, never that of a recorded identity (earlier versions took any text).
        resolveSettings(configSource({ ...plain, [stackMarkKey]: pinned === recorded ? undefined : pinned }));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // The message names the key (`aicp:baseUrl …`): the engine shows the failure under that property.
        const property = Object.keys(configKeys).find((name) => reason.includes(`${packageName}:${name}`)) ?? "";
        const failure = new proto.CheckFailure().setProperty(property).setReason(reason);
        response.setFailuresList([failure]);
      }
    }
    return response;
  }),
  diffConfig: unary(async (request: InstanceType<typeof proto.DiffRequest>) => {
    const olds = reveal(toJson(request.getOlds())) as Record<string, unknown>;
    const news = reveal(toJson(request.getNews())) as Record<string, unknown>;
    // A new setting reaches every resource at its next operation: nothing is replaced for it.
    const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
      (k) => k !== stackMarkKey && k !== "version" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
    );
    return new proto.DiffResponse()
      .setChanges(changed.length > 0 ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE)
      .setDiffsList(changed);
  }),
  configure: unary(async (request: InstanceType<typeof proto.ConfigureRequest>) => {
    const args = revealInputs(toJson(request.getArgs())) as Record<string, unknown>;
    const variables = Object.fromEntries(
      request
        .getVariablesMap()
        .toArray()
        .map(([k, v]) => [k.replace(`${packageName}:config:`, ""), v]),
    );
    const inputs = { ...variables, ...args };
    if (typeof inputs[stackMarkKey] === "string" && inputs[stackMarkKey] !== "") stackMark = inputs[stackMarkKey] as string;
    // A setting a preview does not know yet (another resource's output) is checked against the platform when it is known, at the up.
    // The identity is the instance's own (checkConfig made it), not a setting to check: an earlier version may have recorded any text.
    configureFrom(configSource({ ...inputs, [stackMarkKey]: undefined }), { checkable: !Object.values(inputs).includes(unknownValue) });
    // Secrets arrive marked and leave marked; preview never creates (the engine shows the inputs as outputs).
    // Autonaming: the stack's pulumi:autonaming reaches each Check (autonaming.ts).
    return new proto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setSupportspreview(false)
      .setAcceptresources(false)
      .setAcceptoutputs(false)
      .setSupportsAutonamingConfiguration(true);
  }),

  check: unary(async (request: InstanceType<typeof proto.CheckRequest>) => {
    const kind = kindOf(request.getUrn());
    const olds = reveal(toJson(request.getOlds())) as Record<string, unknown>;
    const rawNews = toJson(request.getNews());
    const identity = identityOf(request.getUrn(), stackMark, olds);
    const autonaming = autonamingOf(request);
    const named = namedBy(autonaming, revealInputs(rawNews) as Record<string, unknown>, olds);
    const news = { ...(reveal(rawNews) as Record<string, unknown>), ...identity, ...(named && "name" in named ? { name: named.name } : {}) };
    if (engineDeletesFirst(autonaming, identity.logicalName)) deletesFirst(identity.ownerMark);
    const result: { inputs?: unknown; failures?: Array<{ property: string; reason: string }> } =
      named && "problem" in named
        ? { inputs: news, failures: [{ property: "name", reason: named.problem }] }
        : await operation(kind, (ops) => ops.check(olds as never, news as never));
    // Recorded as an auto-name, so later checks keep it whatever the setting then proposes (autonaming.ts namedBy).
    if (named && "name" in named && result.inputs) result.inputs = { ...(result.inputs as object), autoNamed: true };
    const response = new proto.CheckResponse().setInputs(
      toStruct(inputsAnswered(kind, (result.inputs ?? news) as Record<string, unknown>, secretKeys(rawNews))),
    );
    // Each failure with its path and value in the reason: the engine's own rendering of a property loses both (check-failures.ts).
    const marked = topKeysOf(secretKeys(rawNews));
    const hidden = [...(kindDescriptions[kind] as KindDescription).secretOutputs, ...marked];
    const failures = (result.failures ?? []).map((f) => engineFailure(f, news, hidden, marked));
    response.setFailuresList(failures.map((f) => new proto.CheckFailure().setProperty(f.property).setReason(f.reason)));
    return response;
  }),
  diff: unary(async (request: InstanceType<typeof proto.DiffRequest>) => {
    const kind = kindOf(request.getUrn());
    const olds = reveal(toJson(request.getOlds()));
    revealInputs(toJson(request.getOldInputs()));
    const news = revealInputs(toJson(request.getNews()));
    const result = (await operation(kind, (ops) => ops.diff(request.getId() as never, olds as never, news as never))) as DiffWithProperties;
    const replaces = result.replaces ?? [];
    const diffs = [...new Set([...(result.diffs ?? []), ...replaces])];
    const response = new proto.DiffResponse()
      .setChanges(
        result.changes === false
          ? proto.DiffResponse.DiffChanges.DIFF_NONE
          : result.changes
            ? proto.DiffResponse.DiffChanges.DIFF_SOME
            : proto.DiffResponse.DiffChanges.DIFF_UNKNOWN,
      )
      .setReplacesList(replaces)
      .setDiffsList(diffs)
      .setDeletebeforereplace(result.deleteBeforeReplace === true)
      .setHasdetaileddiff(true);
    for (const key of diffs) {
      const kindOfChange = replaces.includes(key) ? proto.PropertyDiff.Kind.UPDATE_REPLACE : proto.PropertyDiff.Kind.UPDATE;
      response.getDetaileddiffMap().set(key, new proto.PropertyDiff().setKind(kindOfChange).setInputdiff(true));
    }
    return response;
  }),
  create: unary(async (request: InstanceType<typeof proto.CreateRequest>) => {
    const kind = kindOf(request.getUrn());
    const raw = toJson(request.getProperties());
    const bound = boundedBy(kind, revealInputs(raw) as Record<string, unknown>, request.getTimeout());
    const result = await operation(kind, (ops) => ops.create(bound.props as never), secretKeys(raw), bound);
    return new proto.CreateResponse()
      .setId(result.id)
      .setProperties(toStruct(answered(kind, bound.recorded((result.outs ?? {}) as Record<string, unknown>), secretKeys(raw))));
  }),
  read: unary(async (request: InstanceType<typeof proto.ReadRequest>) => {
    const kind = kindOf(request.getUrn());
    const rawProps = toJson(request.getProperties());
    const rawInputs = toJson(request.getInputs());
    revealInputs(rawInputs);
    const props = reveal(rawProps) as Record<string, unknown>;
    // `pulumi import` and the import option read an id with nothing recorded.
    const importing = Object.keys(props).length === 0;
    // An import claims the mark the resource will have: an object another resource marks is not taken (provider/ownership.ts).
    const claim = { readById: true, importAs: identityOf(request.getUrn(), stackMark, {}).ownerMark };
    const result = await operation(kind, (ops) => ops.read(request.getId() as never, (importing ? claim : props) as never));
    const response = new proto.ReadResponse().setId(result.id ?? "");
    if (!result.id) return response;
    // What was secret stays secret: the engine records what a provider that accepts secrets answers as it is.
    const secretBefore = [...secretKeys(rawProps), ...secretKeys(rawInputs)];
    const read = (result.props ?? {}) as Record<string, unknown>;
    response.setProperties(toStruct(answered(kind, read, secretBefore)));
    // The inputs a refresh records where the platform moved on (a time set in the console, a notebook stopped
    // there), so ignoreChanges keeps the platform's value (provider/notebook/outputs.ts refreshedInputs).
    const refreshed = (result as { inputs?: Record<string, unknown> }).inputs;
    const inputs = importing ? programInputsOf(kind, read) : refreshed ? { ...refreshed } : (reveal(rawInputs) as Record<string, unknown>);
    delete inputs.__provider;
    response.setInputs(toStruct(inputsAnswered(kind, inputs, secretBefore)));
    return response;
  }),
  update: unary(async (request: InstanceType<typeof proto.UpdateRequest>) => {
    const kind = kindOf(request.getUrn());
    const rawNews = toJson(request.getNews());
    revealInputs(toJson(request.getOldInputs()));
    const bound = boundedBy(kind, revealInputs(rawNews) as Record<string, unknown>, request.getTimeout());
    const result = await operation(
      kind,
      (ops) => ops.update(request.getId() as never, reveal(toJson(request.getOlds())) as never, bound.props as never),
      secretKeys(rawNews),
      bound,
    );
    return new proto.UpdateResponse().setProperties(
      toStruct(answered(kind, bound.recorded((result.outs ?? {}) as Record<string, unknown>), secretKeys(rawNews))),
    );
  }),
  delete: unary(async (request: InstanceType<typeof proto.DeleteRequest>) => {
    const kind = kindOf(request.getUrn());
    revealInputs(toJson(request.getOldInputs()));
    const bound = boundedBy(kind, reveal(toJson(request.getProperties())) as Record<string, unknown>, request.getTimeout());
    await operation(kind, (ops) => ops.delete(request.getId() as never, bound.props as never));
    return new emptyProto.Empty();
  }),

  invoke: unary(async (request: InstanceType<typeof proto.InvokeRequest>) => {
    const token = request.getTok();
    const name = token.startsWith(`${packageName}:index:`) ? token.slice(packageName.length + 7) : "";
    const fn = (functions as Record<string, (typeof functions)[FunctionName]>)[name];
    if (!fn) throw new AicpError("AICP_CONFIG", `pulumi-resource-${packageName} has no function '${token}'`);
    const result = (await fn.call(revealInputs(toJson(request.getArgs())) as never)) as unknown as Record<string, unknown>;
    return new proto.InvokeResponse().setReturn(toStruct(withSecrets(result, fn.secretResults)));
  }),
};
