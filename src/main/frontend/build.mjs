// Bundles the admin editor's CodeMirror 6 code into one ES2020 file inside the WAR.
// Called by Maven (exec-maven-plugin) as `npm ci && npm run build`; the output directory comes from
// AMCP_FRONTEND_OUT (Maven passes target/frontend/WEB-INF/assets), defaulting to the same place.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = process.env.AMCP_FRONTEND_OUT || path.resolve(here, "../../../target/frontend/WEB-INF/assets");

await build({
  entryPoints: [path.join(here, "src/editor.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  outfile: path.join(out, "editor.js"),
  legalComments: "linked",
  logLevel: "info",
});
