# tests/cli/locale.sh: the library under a locale whose decimal point is a
# comma (tests/example/locale.c): the same numbers read, the same plugin
# tables, the same IR.  SPDX-License-Identifier: GPL-3.0-or-later
. "$(dirname "$0")/common.bash"
B=$(dirname "$FGM")

# A German locale, compiled into $TMP where the system has none: its
# sources come with Debian's locales package.  Without them the check
# is skipped, and says so.
loc=
for l in de_DE.UTF-8 de_DE.utf8 fr_FR.UTF-8 fr_FR.utf8; do
    locale -a 2>/dev/null | grep -qix "$l" && { loc=$l; break; }
done
if [ -z "$loc" ] && command -v localedef >/dev/null 2>&1 \
   && [ -e /usr/share/i18n/locales/de_DE ]; then
    mkdir -p "$TMP/loc"
    localedef -i de_DE -f UTF-8 "$TMP/loc/de_DE.UTF-8" >/dev/null 2>&1 \
        && export LOCPATH="$TMP/loc" && loc=de_DE.UTF-8
fi
if [ -z "$loc" ]; then
    echo "skipped: no locale with a decimal comma (Debian's locales package)"
    exit 0
fi

expect_exit 0 "build locale.c" -- cc -std=c11 -D_POSIX_C_SOURCE=200809L \
    -Wall -Wextra -Werror -Iruntime tests/example/locale.c "$B/libfgm.a" \
    $(pkg-config --libs gsl) -ldl -lpthread -lm -o "$TMP/locale"
"$TMP/locale" "$loc" "$TMP/gen" > "$TMP/out" 2>&1
rc=$?
if [ $rc = 77 ]; then
    echo "skipped: $(head -1 "$TMP/out")"
    exit 0
fi
[ $rc = 0 ] || fail "locale $loc: exit $rc: $(head -c 400 "$TMP/out")"
finish
