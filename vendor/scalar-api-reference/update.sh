#!/bin/sh
# Replaces the vendored Scalar API reference bundle with another published version.
#   vendor/scalar-api-reference/update.sh 1.46.4
# Fetches the package tarball with `npm pack` (the npm registry only), copies its prebuilt
# standalone bundle and records the version. The bundle has no dependencies and is embedded in the
# binary, so the reference page needs no network. Afterwards: `npm run build`, open
# http://127.0.0.1:8877/openapi from `./smkit playground --demo`, and run test/playground/openapi.test.ts.
set -eu
version=${1:?usage: update.sh VERSION (see: npm view @scalar/api-reference version)}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@scalar/api-reference@$version" >/dev/null)
tar -xzf "$work"/scalar-api-reference-*.tgz -C "$work"
license=$(node -p "require('$work/package/package.json').license")
[ "$license" = MIT ] || { echo "licence is now $license: review vendor/scalar-api-reference/LICENSE" >&2; exit 1; }
cp "$work/package/dist/browser/standalone.js" "$here/standalone.js"
echo "$version" > "$here/VERSION"
echo "vendored @scalar/api-reference $version ($(wc -c < "$here/standalone.js") bytes)"
