#!/usr/bin/env bash
# Rebuilds test/element/templates/ from the npm registry (issue 33): `npm pack` of each template
# and of the libraries their pages load from CDNs, then the trimming and rewriting listed in
# test/element/templates/README.md. Needs the registry (run by hand, never by the tests).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/test/element/templates
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

TEMPLATES=(
  startbootstrap-sb-admin-2@4.1.4 startbootstrap-agency@7.0.12 startbootstrap-creative@7.0.7
  startbootstrap-landing-page@6.0.6 startbootstrap-clean-blog@6.0.9 startbootstrap-shop-homepage@5.0.6
  startbootstrap-resume@7.0.6 startbootstrap-modern-business@5.0.7 startbootstrap-sb-admin@7.0.7
  startbootstrap-freelancer@7.0.7 startbootstrap-new-age@6.0.7 startbootstrap-grayscale@7.0.6
  startbootstrap-stylish-portfolio@6.0.6 startbootstrap-small-business@5.0.6 startbootstrap-shop-item@5.0.6
)
VENDOR=(
  bootstrap@5.2.3 @fortawesome/fontawesome-free@6.3.0 bootstrap-icons@1.5.0 chart.js@2.8.0
  simple-datatables@7.1.2 simplelightbox@2.1.3 simple-line-icons@2.5.5
)
unpack() { # spec -> directory of the unpacked package
  local spec=$1 dir
  dir=$WORK/$(echo "$spec" | tr '/@' '__')
  mkdir -p "$dir"
  tar xzf "$(npm pack "$spec" --silent | tail -1)" -C "$dir"
  echo "$dir/package"
}

rm -rf "$OUT"/startbootstrap-* "$OUT/_vendor"
V=$OUT/_vendor
p=$(unpack bootstrap@5.2.3); mkdir -p $V/bootstrap@5.2.3/js
cp $p/dist/js/bootstrap.bundle.min.js $V/bootstrap@5.2.3/js/; cp $p/LICENSE $V/bootstrap@5.2.3/
p=$(unpack @fortawesome/fontawesome-free@6.3.0); mkdir -p $V/fontawesome-free@6.3.0/js
cp $p/js/all.min.js $V/fontawesome-free@6.3.0/js/; cp $p/LICENSE.txt $V/fontawesome-free@6.3.0/
p=$(unpack bootstrap-icons@1.5.0); mkdir -p $V/bootstrap-icons@1.5.0
cp -r $p/font $V/bootstrap-icons@1.5.0/; cp $p/LICENSE.md $V/bootstrap-icons@1.5.0/
p=$(unpack chart.js@2.8.0); mkdir -p $V/chart.js@2.8.0
cp $p/dist/Chart.min.js $V/chart.js@2.8.0/; cp $p/LICENSE.md $V/chart.js@2.8.0/
p=$(unpack simple-datatables@7.1.2); mkdir -p $V/simple-datatables@7.1.2
cp $p/dist/umd/simple-datatables.js $p/dist/style.css $p/LICENSE $V/simple-datatables@7.1.2/
p=$(unpack simplelightbox@2.1.3); mkdir -p $V/simplelightbox@2.1.3
cp $p/dist/simple-lightbox.min.js $p/dist/simple-lightbox.min.css $V/simplelightbox@2.1.3/; cp $p/LICENSE $V/simplelightbox@2.1.3/ 2>/dev/null || true
p=$(unpack simple-line-icons@2.5.5); mkdir -p $V/simple-line-icons@2.5.5/css
cp $p/css/simple-line-icons.css $V/simple-line-icons@2.5.5/css/; cp -r $p/fonts $V/simple-line-icons@2.5.5/; cp $p/LICENSE.md $V/simple-line-icons@2.5.5/

for spec in "${TEMPLATES[@]}"; do
  name=${spec%@*}
  p=$(unpack "$spec")
  mkdir -p "$OUT/$name"
  if [ -d "$p/dist" ]; then cp -r "$p/dist/." "$OUT/$name/"; else
    # sb-admin-2 ships its pages at the package root with its vendor folder: keep what index.html loads.
    cp "$p/index.html" "$OUT/$name/"; cp -r "$p/css" "$p/js" "$p/img" "$OUT/$name/"
    mkdir -p "$OUT/$name/vendor"
    for f in jquery/jquery.min.js jquery-easing/jquery.easing.min.js chart.js/Chart.min.js \
      bootstrap/js/bootstrap.bundle.min.js fontawesome-free/css/all.min.css; do
      mkdir -p "$OUT/$name/vendor/$(dirname $f)"; cp "$p/vendor/$f" "$OUT/$name/vendor/$f"
    done
    mkdir -p "$OUT/$name/vendor/fontawesome-free/webfonts"
    cp "$p"/vendor/fontawesome-free/webfonts/*.woff2 "$OUT/$name/vendor/fontawesome-free/webfonts/"
    rm -rf "$OUT/$name/js/demo"/{chart-bar-demo.js,datatables-demo.js}
    cp "$p/vendor/fontawesome-free/LICENSE.txt" "$OUT/$name/vendor/fontawesome-free/"
  fi
  cp "$p/LICENSE" "$OUT/$name/LICENSE"
done
node "$ROOT/test/element/rewrite-templates.mjs" "$OUT"

# The second import (issue 33, second stop): templates by other authors, a new held-out part.
# Each kept page is copied with only the files it loads (import-more-templates.mjs).
p=$(unpack @fontsource/material-icons-round@5.3.0); M=$V/material-icons-round@5.3.0
mkdir -p $M/files; cp $p/files/material-icons-round-latin-400-normal.woff2 $M/files/; cp $p/LICENSE $M/
cat > $M/material-icons-round.css <<'CSS'
/* The font of @fontsource/material-icons-round and the class Google's stylesheet defines. */
@font-face {
  font-family: 'Material Icons Round';
  font-style: normal;
  font-weight: 400;
  src: url(./files/material-icons-round-latin-400-normal.woff2) format('woff2');
}
.material-icons-round {
  font-family: 'Material Icons Round';
  font-weight: normal;
  font-style: normal;
  font-size: 24px;
  line-height: 1;
  letter-spacing: normal;
  text-transform: none;
  display: inline-block;
  white-space: nowrap;
  word-wrap: normal;
  direction: ltr;
  -webkit-font-feature-settings: 'liga';
  -webkit-font-smoothing: antialiased;
}
CSS
backstrap=$(unpack @digitallyhappy/backstrap@0.5.1)
material=$(unpack material-dashboard@3.1.0)
argon=$(unpack @creative-tim-official/argon-dashboard@2.0.4)
gentelella=$(unpack gentelella@4.2.0)
cp "$gentelella/LICENSE.txt" "$gentelella/dist/LICENSE" 2>/dev/null || cp "$gentelella/LICENSE" "$gentelella/dist/LICENSE"
node "$ROOT/test/element/import-more-templates.mjs" "$OUT" \
  "backstrap=$backstrap/dist:index.html" \
  "material-dashboard=$material:pages/dashboard.html" \
  "argon-dashboard=$argon:pages/dashboard.html" \
  "gentelella=$gentelella/dist:production/index.html,production/landing.html,production/pricing_tables.html"
