/**
 * The resource templates the guardrails read from the platform, read-only:
 * a notebook that names a `templateId` and leaves out its GPU count or its
 * GPU ids holds the template's (policy/rules.ts templateIdOf). The pack runs beside the
 * engine, not in the provider, so it reads the platform with the settings in
 * the environment where pulumi runs (the variables of
 * docs/configuration.md); without them, or when the platform cannot answer, the
 * GPUs are "not known" and the pack says why instead of failing the preview.
 */
import { AicpError } from "../client/errors";
import { configKeys, createClient, resolveSettings } from "../client/config";
import { specType } from "../client/wire/template";
import type { TemplateAnswer } from "./rules";

/** Reads stay short: a preview that waits on an unreachable platform is worse than a summary that says "not known". */
const readLimits = { timeoutMs: 5_000, retryBudgetMs: 10_000 };

/** How long a failed read answers before it is tried again. */
const failureKeptMs = 30_000;

const settingsNamed = (["accessKeyId", "secretAccessKey", "baseUrl", "zone"] as const).map((key) => configKeys[key].env).join(", ");

/** Each template's answer, read once per process (one preview) however many notebooks name it. */
export class TemplateCatalogue {
  private readonly answers = new Map<number, Promise<TemplateAnswer>>();

  constructor(private readonly environment: NodeJS.ProcessEnv) {}

  answer(id: number): Promise<TemplateAnswer> {
    let answer = this.answers.get(id);
    if (!answer) {
      answer = this.read(id);
      this.answers.set(id, answer);
      // A read that failed answers for a while (one preview asks per notebook and per stack rule), then is tried again
      // (the update after a preview, in the same process).
      const forget = () => setTimeout(() => this.answers.get(id) === answer && this.answers.delete(id), failureKeptMs).unref();
      void answer.then((a) => "unknown" in a && a.unknown.startsWith("cannot read it") && forget(), forget);
    }
    return answer;
  }

  private async read(id: number): Promise<TemplateAnswer> {
    const unknown = (why: string) => ({ unknown: why });
    if (!this.environment[configKeys.accessKeyId.env] || !this.environment[configKeys.secretAccessKey.env]) {
      return unknown(`no platform settings where pulumi runs (${settingsNamed}) to read it`);
    }
    try {
      const client = createClient(
        resolveSettings(() => undefined, this.environment),
        { ...readLimits, front: "policy" },
      );
      try {
        // The platform lists only `common` templates unless asked for the others (platform-api A4.5).
        const { items } = await client.listTemplates({ template_ids: [id], spec_type: specType.options });
        const template = items.find((t) => t.tmp_id === id);
        if (!template) return unknown(`the platform lists no template ${id} for this account`);
        if (typeof template.gpu !== "number" || !Number.isFinite(template.gpu)) return unknown(`the platform gave no GPU count for template ${id}`);
        return { gpus: template.gpu, listed: template.gpu_list?.length ?? 0, model: template.gpu_name ?? "" };
      } finally {
        await client.close();
      }
    } catch (error) {
      return unknown(`cannot read it: ${error instanceof AicpError || error instanceof Error ? error.message : String(error)}`);
    }
  }
}
