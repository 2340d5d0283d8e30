#!/usr/bin/env bash
# Rebuilds agentv/ (the AgentV 5.x CLI the parity tests use as their oracle) from AgentV's repository at a tag.
# No 5.x release is on npm (`npm view agentv versions` stops at 4.42.4), so the CLI is built from source, as
# AgentV's own release does (bun install, then tsup in packages/core and apps/cli), and the built JavaScript is kept
# here: CI clones this repository with npm reachable but not GitHub. Source maps and the bundled skills are left out.
#     tests/agentv5/build.sh /path/to/agentv.git [v5.3.1-next.1]
set -euo pipefail
repo=$1
tag=${2:-v5.3.1-next.1}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$repo" archive "$tag" | tar -x -C "$work"
npm install --prefix "$work/.bun" --no-save --no-audit --no-fund --loglevel=error "bun@$(node -p "require('$work/package.json').packageManager.split('@')[1]")"
export PATH="$work/.bun/node_modules/.bin:$PATH"
(cd "$work" && bun install --frozen-lockfile)
(cd "$work/packages/core" && bun run build)
(cd "$work/apps/cli" && bun run build)
rm -rf "$here/agentv/dist"
mkdir -p "$here/agentv/dist"
cp "$work"/apps/cli/dist/*.js "$here/agentv/dist/"
cp -r "$work/apps/cli/dist/templates" "$here/agentv/dist/"
cp "$work/LICENSE" "$here/agentv/LICENSE"
node -e '
const [src, dst] = process.argv.slice(1);
const pkg = require(src);
const keep = { name: pkg.name, version: pkg.version, description: pkg.description + " (built from source by tests/agentv5/build.sh)",
  license: "MIT", type: pkg.type, repository: pkg.repository, bin: pkg.bin, dependencies: pkg.dependencies };
require("fs").writeFileSync(dst, JSON.stringify(keep, null, 2) + "\n");
' "$work/apps/cli/package.json" "$here/agentv/package.json"
echo "built agentv $tag into $here/agentv; now: cd $here && npm install (it rewrites package-lock.json)"
