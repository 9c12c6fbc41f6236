#!/bin/sh
# The translations' catalogs (README "Translations").
#   scripts/catalogs.sh extract FILE   every marked text of the code into FILE (a .pot)
#   scripts/catalogs.sh update         ...and into each language's catalog: new texts arrive empty,
#                                      texts the code no longer has leave (`make test` fails until
#                                      every entry is translated)
#   scripts/catalogs.sh init LANG      a new language's catalog, to translate
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
CATALOGS=scorekeeper/translations
POT=$CATALOGS/messages.pot

extract() {
    mkdir -p "$(dirname "$1")"
    "$BIN/pybabel" --quiet extract -F babel.cfg --no-location --sort-output -c Translators: \
        -k _l -k lazy_ngettext:1,2 -k msg -k counted:2,3 -k agreeing:2,3 -k by_number:1,2 -k counted_texts:1,2 -o "$1" .
}

case "${1:-}" in
    extract) extract "$2" ;;
    update)
        extract "$POT"
        "$BIN/pybabel" --quiet update -i "$POT" -d "$CATALOGS" --no-fuzzy-matching --ignore-obsolete --no-wrap ;;
    init)
        extract "$POT"
        "$BIN/pybabel" --quiet init -i "$POT" -d "$CATALOGS" -l "$2" --no-wrap ;;
    *) echo "usage: $0 extract FILE | update | init LANG" >&2; exit 2 ;;
esac
