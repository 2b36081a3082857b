// Bundles the compiled plugin (dist/plugin/main.js) and everything it loads
// into one CommonJS file, the main script of the single executable
// (scripts/plugin-executable.sh): a single executable's `require` loads only
// Node's own modules.
//
//   node tools/plugin-executable/bundle.mjs <out.cjs>
//
// The plugin loads gRPC, protobuf and the engine's client from beside
// @pulumi/pulumi (createRequire, plugin/grpc.ts and provider/engine-log.ts);
// here they become plain requires, bundled like the rest. Fails when that
// pattern is gone, so a change there cannot leave a require the executable
// cannot serve.
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const out = process.argv[2];
if (!out) throw new Error("usage: node tools/plugin-executable/bundle.mjs <out.cjs>");

const besideSdk = /\(0, node_module_1\.createRequire\)\(require\.resolve\("@pulumi\/pulumi"\)\)/g;
const rewritten = new Set();
const sdkRequires = {
  name: "sdk-requires",
  setup(b) {
    b.onLoad({ filter: /dist\/(plugin\/grpc|provider\/engine-log)\.js$/ }, async ({ path }) => {
      let text = await readFile(path, "utf8");
      if (!besideSdk.test(text)) throw new Error(`${relative(root, path)}: no createRequire beside @pulumi/pulumi to rewrite; update this bundler`);
      text = text.replace(besideSdk, "undefined").replace(/\b(fromPulumi|fromSdk)\("/g, 'require("');
      rewritten.add(relative(root, path));
      return { contents: text, loader: "js" };
    });
  },
};

const result = await build({
  entryPoints: [join(root, "dist/plugin/main.js")],
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  outfile: out,
  plugins: [sdkRequires],
  metafile: true,
  logLevel: "warning",
  legalComments: "none",
});
if (rewritten.size !== 2) throw new Error(`expected to rewrite plugin/grpc.js and provider/engine-log.js, rewrote ${[...rewritten].join(", ")}`);
const inputs = Object.keys(result.metafile.inputs);
console.error(`bundled ${inputs.length} modules into ${relative(process.cwd(), out)}`);
