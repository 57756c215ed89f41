# docs-check.sh: what the docs claim about the tree, checked (the tests
# 07-docs-links-and-names-resolve and 07-readme-short-and-undated). Each
# function prints one line per problem and nothing when all holds, so a
# test compares its output with "" and feeds it a fixture as its control.
# Needs RB_TOP (common.sh).

# The directories whose files the docs name in backquotes.
DOCS_NAME_DIRS='scripts|analysis|tcpbench|udpreplay|zones|docs|\.ci'

# docs_prose FILE: FILE without its fenced code blocks (``` or ~~~), so
# that an example inside one is not read as a link or a heading.
docs_prose() {
    awk '/^ *(```|~~~)/ { fence = !fence; next } !fence' "$1"
}

# docs_anchors FILE: the anchors FILE's headings get, as GitHub makes
# them: the heading's text in lower case, every character but letters,
# digits, spaces, '_' and '-' left out, spaces made '-', a repeated one
# suffixed -1, -2, ...; and every <a id="..."> or <a name="...">.
docs_anchors() {
    docs_prose "$1" | awk '
        /^ *#+ / {
            s = $0
            sub(/^ *#+ +/, "", s); sub(/ +#+ *$/, "", s); sub(/ +$/, "", s)
            s = tolower(s)
            gsub(/[^a-z0-9 _-]/, "", s); gsub(/ /, "-", s)
            if (s in seen) { n = ++seen[s]; print s "-" n } else { seen[s] = 0; print s }
        }
        { line = $0
          while (match(line, /<a (id|name)="[^"]+"/)) {
              a = substr(line, RSTART, RLENGTH); sub(/^<a (id|name)="/, "", a); sub(/"$/, "", a)
              print a; line = substr(line, RSTART + RLENGTH)
          } }'
}

# docs_links FILE: each inline link or image target of FILE's prose, one
# a line ([text](target), ![alt](target); a title after the target and
# <angle brackets> around it dropped).
docs_links() {
    docs_prose "$1" | sed 's/`[^`]*`//g' | grep -oE '\]\([^)]+\)' \
        | sed -E 's/^\]\(//; s/\)$//; s/^<([^>]*)>.*/\1/; s/ +"[^"]*"$//' || true
}

# docs_broken_links DOC...: "DOC: TARGET" for each relative link of a doc
# whose file does not exist, or whose #anchor no heading of the Markdown
# file it points to has. Links with a scheme (https:, mailto:) are not
# followed.
docs_broken_links() {
    local doc target path anchor file
    local -A anchors=()   # each page's anchors, one awk per page
    for doc in "$@"; do
        while IFS= read -r target; do
            [[ $target =~ ^[a-zA-Z][a-zA-Z0-9+.-]*: ]] && continue
            path=${target%%#*}; anchor=""
            [[ $target == *'#'* ]] && anchor=${target#*#}
            if [ -z "$path" ]; then file=$doc; else file=${doc%/*}/$path; fi
            if [ ! -e "$file" ]; then
                echo "${doc#"$RB_TOP"/}: $target (no such file)"
            elif [ -n "$anchor" ] && [[ $file == *.md ]]; then
                [ -n "${anchors[$file]+set}" ] || anchors[$file]=$'\n'$(docs_anchors "$file")$'\n'
                [[ ${anchors[$file]} == *$'\n'"$anchor"$'\n'* ]] || echo "${doc#"$RB_TOP"/}: $target (no such heading)"
            fi
        done < <(docs_links "$doc")
    done
}

# docs_missing_names DOC...: "file PATH" for each `PATH` in backquotes
# under the project's directories that is no file or directory of the tree
# (the build/ trees that make deps and the builds fill left out), and
# "make target T" for each make target a doc runs (`make T` in prose, a
# line "make T" or "$ make T" in a code block) that the Makefile has no
# rule for (make_targets).
docs_missing_names() {
    local p
    cat "$@" | grep -oE '`[^`]+`' | tr -d '`' \
        | grep -oE "^($DOCS_NAME_DIRS)/[A-Za-z0-9_./-]+\$" | grep -vE '/build(/|$)' | sort -u \
        | while read -r p; do [ -e "$RB_TOP/$p" ] || echo "file $p"; done
    { cat "$@" | grep -oE '`make [a-z][a-z0-9-]*' | sed 's/^`make //'
      cat "$@" | grep -oE '^ *(\$ )?make [a-z][a-z0-9-]*' | sed -E 's/^ *(\$ )?make //'
    } | LC_ALL=C sort -u | LC_ALL=C comm -23 - <(make_targets) | sed 's/^/make target /'
}

# make_targets: every target the Makefile (with its .mk fragments) has a
# rule for, sorted: make's database (-p) without running anything (-q,
# a goal that does not exist), less the files it only considered ("Not a
# target").
make_targets() {
    make -pq -C "$RB_TOP" .rootbench-no-such-goal 2>/dev/null \
        | awk '/^# Not a target:/ { skip = 1; next }
               /^[A-Za-z0-9][A-Za-z0-9_.\/-]*:([^=]|$)/ { if (!skip) { sub(/:.*/, ""); print } }
               { skip = 0 }' | LC_ALL=C sort -u
}

# README_MAX_LINES: what a reader takes in within two minutes.
README_MAX_LINES=150

# readme_problems FILE: a line for each of: more than README_MAX_LINES
# lines; a date (YYYY-MM-DD); a clock time (HH:MM, not inside an IPv6 or
# MAC address); a relative day ("this morning", "later that day",
# "yesterday"). Dated runs belong in docs/measurements/, which the README
# links: a link's target (a measurement page's file name) may hold a
# date, its text may not.
readme_problems() {
    local n text
    n=$(wc -l < "$1")
    [ "$n" -le "$README_MAX_LINES" ] || echo "$n lines, more than $README_MAX_LINES"
    text=$(sed -E 's/\]\([^)]*\)/]()/g' "$1")
    grep -nE '(^|[^0-9])20[0-9]{2}-[01][0-9]-[0-3][0-9]([^0-9]|$)' <<<"$text" | sed 's/^\([0-9]*\):.*/line \1: a date/' || true
    grep -nE '(^|[^0-9A-Fa-f:])([01]?[0-9]|2[0-3]):[0-5][0-9]([^0-9A-Fa-f:]|$)' <<<"$text" | sed 's/^\([0-9]*\):.*/line \1: a clock time/' || true
    grep -niE 'this (morning|afternoon|evening)|later that day|yesterday' <<<"$text" | sed 's/^\([0-9]*\):.*/line \1: a relative day/' || true
}
