/**
 * The AICP guardrails policy pack (docs/guardrails.md): what
 * `pulumi preview --policy-pack <pulumi-aicp>/policy/pack` runs, offline,
 * mandatory by default, each policy's level and settings changed by the
 * engine's `--policy-pack-config` JSON.
 */
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

new PolicyPack("aicp-guardrails", { enforcementLevel: "mandatory", policies });
