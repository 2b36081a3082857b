/**
 * The table `npm run bench` prints of a full run (bench/run.ts), from the figures it writes to bench/results/.
 * Apart from run.ts, which measures, so the measurements read without the layout of their printing.
 */
import { printFloor } from "./floor";
import { printPluginForms } from "./plugin";
import { printReadiness } from "./readiness";

/** What the printed headings say of how the figures were taken. */
export interface RunSettings {
  latencyMs: number;
  runs: number;
  engineParallelism: number;
}

// The report is the JSON the measurements wrote, read back only to print it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function printReport(report: Record<string, any>, { latencyMs, runs, engineParallelism }: RunSettings): void {
  const s = report.scale;
  const fmt = (x: { min: number; median: number; max: number }) => `${Math.round(x.median)} (${Math.round(x.min)}-${Math.round(x.max)})`;
  console.log(`\nScale: pulumi up of N notebooks, ${latencyMs} ms per request, ms median (min-max) of ${runs} runs`);
  console.log(
    "N".padEnd(5) +
      "up".padEnd(20) +
      "direct client".padEnd(20) +
      "marginal/nb".padEnd(13) +
      "direct/nb".padEnd(11) +
      "ratio".padEnd(7) +
      "conns".padEnd(7) +
      "provider RSS MB",
  );
  for (const r of s.rows) {
    console.log(
      String(r.n).padEnd(5) +
        fmt(r.up).padEnd(20) +
        fmt(r.baseline).padEnd(20) +
        String(r.marginalMsPerNotebook ?? "-").padEnd(13) +
        String(r.baselineMarginalMsPerNotebook ?? "-").padEnd(11) +
        String(r.marginalRatio ?? "-").padEnd(7) +
        String(r.peakConnections).padEnd(7) +
        (r.peakProviderRssBytes / 2 ** 20).toFixed(0),
    );
  }
  for (const r of s.rows) console.log(`requests per notebook at N=${r.n}: ${JSON.stringify(r.requestsPerResource)}`);
  const noop = s.noop;
  console.log(
    `\nNo-op at N=${noop.n}: preview ${noop.preview.ms} ms, ${noop.preview.requests} requests, ${noop.preview.writes} writes; second up ` +
      `${noop.secondUp.ms} ms, ${noop.secondUp.writes} writes`,
  );
  const ms = (x: number) => Math.round(x);
  for (const form of ["folder", "executable"] as const) {
    console.log(
      `Guardrails pack (${form}) at N=${noop.n}: no-op preview ${ms(noop.policy.withoutMs)} ms without, ${ms(noop.policy[form].withMs)} ms with ` +
        `(+${ms(noop.policy[form].addedMs)} ms, ratio ${noop.policy[form].ratio}; medians of 3 interleaved rounds)`,
    );
    const small = s.packAtSmallest;
    if (small) {
      console.log(
        `Guardrails pack (${form}) at N=${small.n}: +${ms(small[form].addedMs)} ms (the pack's start); so its evaluation of ${noop.n - small.n} more ` +
          `notebooks adds ${ms(noop.policy[form].addedMs - small[form].addedMs)} ms`,
      );
    }
  }
  console.log(
    `Refresh at N=${noop.n}: ${noop.refresh.ms} ms, ${noop.refresh.requests} requests, ${noop.refresh.byOperation.listNotebooks ?? 0} list pages for ` +
      `${noop.refresh.listPagesNeeded} needed (ratio ${noop.refresh.listPagesRatio})`,
  );
  console.log(`State: __provider ${noop.state.providerBytesPerResource} bytes per resource, ${noop.state.stateBytesPerNotebook} bytes of state per notebook`);
  const t = report.templates;
  if (!t) return;
  console.log(`\nTemplates (${t.templates}): concurrent ${fmt(t.concurrent)} ms, sequential ${fmt(t.sequential)} ms, ratio ${t.ratio}x`);
  const r = report.refreshAtScale;
  console.log(`\nRefresh of ${r.notebooks} notebooks (read() of each, ${engineParallelism} at a time), list requests of at most 100 items:`);
  for (const row of r.rows)
    console.log(
      `  ${row.totals.padEnd(26)} ${row.listRequests} list requests (largest page ${row.largestPage}), ${row.kept} of ${r.notebooks} kept, ${row.ms} ms`,
    );
  const a = report.adaptation;
  console.log(
    `Adaptation: a fresh client meeting ${a.unknownsWrong} wrong guesses (prefix, signature body) with 15 requests at once: ${a.extraRequests} extra ` +
      `requests (${a.gatewayAnswers} gateway answers, ${a.signatureRefusals} signature refusals) of ${a.requests}`,
  );
  const st = report.startup;
  console.log(`Program start: require("@pulumi/pulumi") ${fmt(st.requirePulumiMs)} ms; require("pulumi-aicp") adds ${fmt(st.addedByPulumiAicpMs)} ms`);
  printReadiness(report.readiness);
  printPluginForms(report.plugin);
  printFloor(report.floor);
}
