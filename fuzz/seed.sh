#!/bin/sh
# Fills fuzz/corpus/<target>/ with seeds (the folder is ignored by git). Run from fuzz/.
# check: every rule fixture and case (the first byte of a seed picks the name and format).
# config: configuration files, each followed by NUL and a small sitemap from the rule fixtures.
# suppression: the bodies of suppression comments found in the fixtures, and a few made here.
set -eu
mkdir -p corpus/check corpus/config corpus/suppression
cp_seed() { # target name file
    n=$(printf '%s' "$2" | cksum | cut -d' ' -f1)
    cp "$3" "corpus/$1/seed-$n"
}
find ../corpus -type f ! -name '*.expected' ! -name '*.args' ! -name 'README*' | while read -r f; do
    cp_seed check "$f" "$f"
done
i=0
for cfg in \
    'preset = "yandex"\nmax-url-length = 1024\nsitemap-url = "https://www.example.com/sitemap.xml"\nexclude = ["drafts", "old/**/*.xml"]\n\n[rules]\nurl = "warning"\nloc-fragment = "error"\nall = "info"\n' \
    'sitemap-url = "https://e.com/sitemap.xml"\n' \
    'sitemap-url = "https://例え.jp/a/sitemap.xml"\n[rules]\nloc-outside-scope = "error"\n' \
    'preset = "strict-xsd"\n[rules]\ndate = "info"\nlastmod-invalid = "warning"\n' \
    'preset = "bing"\nmax-url-length = 12\n' \
    '[rules]\nloc-lenght = "error"\n' \
    'presett = "google"\n'; do
    i=$((i + 1))
    printf "\000$cfg" > "corpus/config/seed-cfg-$i"
    for f in ../corpus/rules/loc-outside-scope/*.xml ../corpus/rules/hreflang-invalid/fail_*.xml; do
        [ -f "$f" ] || continue
        n=$(printf '%s' "$f" | cksum | cut -d' ' -f1)
        { printf "\000$cfg\000"; cat "$f"; } > "corpus/config/seed-cfg-$i-$n"
    done
done
grep -rhoa 'sitemap-lint:[^>]*' ../corpus | sed 's/^sitemap-lint: *//; s/ *--$//' | sort -u | while IFS= read -r body; do
    n=$(printf '%s' "$body" | cksum | cut -d' ' -f1)
    printf '\000%s' "$body" > "corpus/suppression/seed-$n"
done
for body in 'allow(loc-fragment)' 'allow(url, date)' 'allow(all)' 'allow(loc-fragmnt, priority-invalid)' \
    'allow(suppression-invalid)' 'allow()' 'allow(changefreq-invalid,priority-invalid,loc-invalid)'; do
    n=$(printf '%s' "$body" | cksum | cut -d' ' -f1)
    printf '\100%s' "$body" > "corpus/suppression/seed-m-$n"
done
for t in check config suppression; do
    echo "$t: $(ls corpus/$t | wc -l) seeds"
done
