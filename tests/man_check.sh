#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The man pages against the tool. What the tool accepts is read from the
# tool itself ("rocectl help", "rocectl OBJECT help"), not from a list kept
# here: every object, option, command, keyword and value it lists (and the
# names of its two-column tables: rocectl dcqcn help's aliases) must appear
# as a whole word in the rendered page of its object, and every page must
# render without warnings. rocectl-dcqcn.8 must also name every parameter
# and counter of the mlx5 backend's own tables (kernel/mlx5/cong.c). One "ok - man: ..." or "not ok - man: ... # why"
# line per page and kind of check; exit status 0 only if all are ok.
#
#   tests/man_check.sh          (ROCECTL=path/to/rocectl overrides user/rocectl)
set -u
shopt -s lastpipe	# check_words at the end of a pipeline sets $status
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ROCECTL=${ROCECTL:-$ROOT/user/rocectl}
case $ROCECTL in
/*) ;;
*/*) ROCECTL=$PWD/$ROCECTL ;;	# relative to where we were started
esac
cd "$ROOT" || exit 1
# shellcheck source=tests/results.sh
. tests/results.sh
MAN=user/man
status=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

result() {	# result WHAT OK [WHY]
	if [ "$2" = 0 ]; then
		echo "ok - man: $1"
	else
		echo "not ok - man: $1 # ${3:-failed}"
		status=1
	fi
}

# apply's grammar until "rocectl apply help" answers: the command the lead
# engineer is adding, as specified (rocectl-apply(8), rocectl.conf(5)).
APPLY_FALLBACK_HELP='Usage: rocectl apply [ FILE ] [ dev DEV ]
FILE defaults to /etc/rocectl/rocectl.conf; its lines hold watchdog set,
watchdog del and watchdog big-red-switch commands.'
APPLY_FALLBACK_WORDS='watchdog set del big-red-switch rocectl.conf rocectl.service
90-rocectl.rules /etc/modules-load.d/rocectl.conf systemd-modules-load.service
CAP_NET_ADMIN'
# The commands a policy line may hold (rocectl.conf(5)), per object.
CONF_COMMANDS='set del big-red-switch'
CONF_DCQCN_COMMANDS='set'

# "rocectl ARGS... help", from an empty directory, with no input: its text,
# or nothing (and status 1) if it is not a help text.
tool_help() {
	local out
	out=$(cd "$TMP" && timeout 10 "$ROCECTL" "$@" help < /dev/null 2> /dev/null) &&
		printf '%s\n' "$out" | grep -q '^Usage:' && printf '%s\n' "$out"
}

# The words a help text's grammar names, one a line: commands and keywords
# (words with a lowercase letter) and the values of "NAME := { a | b }"
# definitions; metavariables (capitals) and prose are left out. With
# only="cmd ...", usage lines of other commands are left out.
grammar_words() {
	awk -v only="${1:-}" '
	function emit(w) { if (w != "" && !(w in seen)) { seen[w] = 1; print w } }
	BEGIN { n = split(only, o, " "); for (i = 1; i <= n; i++) want[o[i]] = 1 }
	{
		line = $0; first = 1
		if (sub(/^Usage:[ \t]*/, "", line) || line ~ /^[ \t]+rocectl[ \t]/) {
			kind = "usage"; depth = 0; vals = 0; skip = 0
		} else if (line ~ /^[A-Z][A-Z_]* :=/) {
			kind = "def"; depth = 0; vals = 0; skip = 0; closed = 0
		} else if (kind != "" && (depth > 0 || line ~ /^[ \t]+[[{]/)) {
			first = 0	# a continuation of the line before
		} else {
			kind = ""; next
		}
		gsub(/[][{}|]/, " & ", line)
		nt = split(line, t, /[ \t]+/)
		i = 1
		while (i <= nt && t[i] == "") i++
		if (first && kind == "usage") {
			# rocectl OBJECT [COMMAND]
			if (t[i] == "rocectl") i++
			emit(t[i++])
			if (i <= nt && t[i] ~ /^[a-z]/) {
				skip = n > 0 && !(t[i] in want)
				if (!skip) emit(t[i])
				i++
			} else {
				skip = n > 0
			}
		}
		if (skip) next
		for (; i <= nt; i++) {
			w = t[i]
			if (w == "" || w == "|") continue
			if (w == "{" || w == "[") {
				stk[++depth] = (w == "{" && kind == "def")
				vals += stk[depth]
			} else if (w == "}" || w == "]") {
				if (depth > 0) vals -= stk[depth--]
				if (kind == "def" && depth == 0) closed = 1
			} else if (kind == "def" && depth == 0) {
				if (closed) break	# prose after the definition
			} else if (w ~ /[a-z]/ || (vals > 0 && w ~ /[A-Za-z0-9]/)) {
				emit(w)
			}
		}
	}'
}

# The names of a help text's two-column tables, "  NAME  NAME" lines such as
# rocectl dcqcn help's aliases ("  alpha-gain   rp_gd"): both columns, one a
# line. Prose lines ("  dev    RDMA devices added, ...") have more words.
help_tables() {
	awk '/^[ \t]+[a-z][a-z0-9_-]*[ \t]+[a-z][a-z0-9_-]*[ \t]*$/ { print $1; print $2 }'
}

# Absolute paths a help text names (a default file, say).
help_paths() {
	grep -oE '(^|[ (])/[A-Za-z0-9._/-]+' | sed 's/^[ (]//; s/[.]$//'
}

# A page as plain text: no formatting, one paragraph a line (no breaks, so
# no hyphenation), hyphens and minus signs as ASCII.
render() {
	LC_ALL=C groff -man -Tutf8 -rLL=4000n -P-c -P-b -P-u "$1" 2> /dev/null |
		LC_ALL=C sed 's/.\x08//g; s/\xe2\x80\x90/-/g; s/\xe2\x80\x91/-/g; s/\xe2\x88\x92/-/g'
}

# The words of stdin that the text file $1 lacks as whole words.
missing_words() {
	local w re
	while read -r w; do
		[ -n "$w" ] || continue
		re=$(printf '%s' "$w" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
		grep -qE -- "(^|[^A-Za-z0-9_-])$re(\$|[^A-Za-z0-9_-])" "$1" || printf '%s ' "$w"
	done
}

# check_words PAGE WHAT: stdin holds the words PAGE must name.
check_words() {
	local page=$MAN/$1 miss
	if [ ! -f "$page" ]; then
		result "$1 $2" 1 "no page $page"
		return
	fi
	render "$page" > "$TMP/page.txt"
	miss=$(missing_words "$TMP/page.txt")
	[ -z "$miss" ]
	result "$1 $2" $? "missing: ${miss% }"
}

# --- the tool, and the plan ---------------------------------------------------------
# A copy: one and the same tool for every question, even if it is rebuilt meanwhile.
if ! tool=$(command -v "$ROCECTL") || ! cp "$tool" "$TMP/rocectl" 2> /dev/null; then
	result "the tool to check against exists" 1 "no $ROCECTL: make -C user"
	exit 1
fi
ROCECTL=$TMP/rocectl
if ! top=$(cd "$TMP" && timeout 10 "$ROCECTL" help < /dev/null 2>&1); then
	result "rocectl help answers" 1 "$(printf '%s' "$top" | head -n 2 | tr '\n' ' ')"
	exit 1
fi

# OBJECT := { dev | qp | ... }, OPTIONS := { -j[son] | ... }
objects=$(printf '%s\n' "$top" | sed -n 's/.*OBJECT := {\(.*\)}.*/\1/p' | tr -d '|')
options=$(printf '%s\n' "$top" | sed -n 's/.*OPTIONS := {\(.*\)}.*/\1/p' | tr -d '|')
# The objects whose page is checked against their help: those with commands
# ("rocectl OBJECT help" answers), and apply even before the tool has it.
checked=
for o in $(tr -s ' ' '\n' <<< "$objects apply" | awk '!seen[$0]++'); do
	[ "$o" = help ] && continue
	if [ "$o" = apply ] || tool_help "$o" > /dev/null; then
		checked="$checked $o"
	fi
done

pages=$(ls $MAN/*.[1-8] 2> /dev/null)
# Two a page (or one: none found); then the objects and options, rocectl.8's
# words and exit statuses, one per checked object, two for rocectl.conf.5,
# two for the DCQCN names.
npages=$(wc -w <<< "$pages")
plan $(( (npages > 0 ? 2 * npages : 1) + 3 + $(wc -w <<< "$checked") + 2 + 2 ))

# --- every page renders cleanly and has the sections a page needs --------------
have_man=1
for tool in man groff; do
	command -v $tool > /dev/null || have_man=0
done
[ -n "$pages" ] || result "pages exist in $MAN" 1 "none found"
for page in $pages; do
	name=$(basename "$page")
	if [ $have_man = 0 ]; then
		result "$name renders without warnings (man --warnings, groff -ww)" 1 \
			"man-db or groff is not installed"
		result "$name has NAME, SYNOPSIS, DESCRIPTION, EXAMPLES, SEE ALSO; its rocectl references exist" 1 \
			"man-db or groff is not installed"
		continue
	fi
	warn=$( { LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" > /dev/null
		groff -man -ww -z "$page"; } 2>&1 | head -n 3 | tr '\n' ' ')
	[ -z "$warn" ]
	result "$name renders without warnings (man --warnings, groff -ww)" $? "$warn"

	render "$page" > "$TMP/page.txt"
	why=
	for sect in NAME SYNOPSIS DESCRIPTION EXAMPLES "SEE ALSO"; do
		grep -qx "$sect" "$TMP/page.txt" || why="$why no $sect;"
	done
	# Every rocectl page it refers to exists: rocectl-qp(8) is rocectl-qp.8.
	while read -r ref; do
		file=${ref%(*}.${ref//[^1-8]/}
		[ -f "$MAN/$file" ] || why="$why $ref has no page;"
	done < <(grep -oE 'rocectl[a-z.-]*\([1-8]\)' "$TMP/page.txt" | sort -u)
	why=${why# }
	[ -z "$why" ]
	result "$name has NAME, SYNOPSIS, DESCRIPTION, EXAMPLES, SEE ALSO; its rocectl references exist" $? "${why%;}"
done

# --- the pages against the tool ----------------------------------------------------
[ -n "$objects" ] && [ -n "$options" ]
result "rocectl help lists objects and options" $? "no OBJECT := or OPTIONS := line"

# rocectl.8: every object (and the page of each that has commands), every
# option short and long (-j[son]: -j and --json).
{
	for o in $objects; do
		echo "$o"
		[ "$o" != help ] && tool_help "$o" > /dev/null && echo "rocectl-$o"
	done
	for opt in $options; do
		short=${opt%%[*}
		echo "$short"
		case $opt in
		*\[*\]) rest=${opt#*[}; echo "-$short${rest%]}" ;;
		esac
	done
} | check_words rocectl.8 "names every object and option the tool accepts"

# The exit statuses "rocectl help" lists: in rocectl.8's EXIT STATUS.
codes=$(printf '%s\n' "$top" | sed -n '/Exit status:/,$p' | grep -oE '(^|[ :,])[0-9]+ [a-z]' | grep -oE '[0-9]+')
if [ -f $MAN/rocectl.8 ]; then
	render $MAN/rocectl.8 | awk '$0 == "EXIT STATUS" { on = 1; next } /^[A-Z]/ { on = 0 } on' > "$TMP/exit.txt"
	miss=$(printf '%s\n' "$codes" | missing_words "$TMP/exit.txt")
	[ -n "$codes" ] && [ -z "$miss" ]
	result "rocectl.8 EXIT STATUS gives every exit status rocectl help lists" $? \
		"${codes:+missing: }${miss:-rocectl help lists none}"
else
	result "rocectl.8 EXIT STATUS gives every exit status rocectl help lists" 1 "no page $MAN/rocectl.8"
fi

# Each object with commands: its page names every command, keyword and value
# of "rocectl OBJECT help". apply is checked even before the tool has it.
for o in $checked; do
	if help=$(tool_help "$o"); then
		{ printf '%s\n' "$help" | grammar_words
		  printf '%s\n' "$help" | help_tables
		  printf '%s\n' "$help" | help_paths; } |
			check_words "rocectl-$o.8" "names every $o command, keyword, value and alias the tool accepts"
	elif [ "$o" = apply ]; then
		{ printf '%s\n' "$APPLY_FALLBACK_HELP" | grammar_words
		  printf '%s\n' "$APPLY_FALLBACK_HELP" | help_paths
		  tr -s ' \n' '\n' <<< "$APPLY_FALLBACK_WORDS"; } |
			check_words rocectl-apply.8 "names every word of apply's specified grammar (rocectl apply help does not answer yet)"
	fi
done

# rocectl.conf.5: the grammar of the commands a policy line may hold.
if wd=$(tool_help watchdog); then
	{ printf '%s\n' "$wd" | grammar_words "$CONF_COMMANDS"; echo /etc/rocectl/rocectl.conf; } |
		check_words rocectl.conf.5 "names every keyword and value of watchdog ${CONF_COMMANDS// /, }, as policy lines take them"
else
	result "rocectl.conf.5 names every keyword and value of watchdog ${CONF_COMMANDS// /, }" 1 \
		"rocectl watchdog help does not answer"
fi
if dc=$(tool_help dcqcn); then
	printf '%s\n' "$dc" | grammar_words "$CONF_DCQCN_COMMANDS" |
		check_words rocectl.conf.5 "names every keyword of dcqcn ${CONF_DCQCN_COMMANDS// /, }, as policy lines take them"
else
	result "rocectl.conf.5 names every keyword of dcqcn ${CONF_DCQCN_COMMANDS// /, }" 1 \
		"rocectl dcqcn help does not answer"
fi

# rocectl-dcqcn.8: every parameter and counter the mlx5 backend knows, also
# those without an alias (which rocectl dcqcn help does not list). Read from
# the backend's own tables in kernel/mlx5/cong.c (names in double quotes).
CONG_SRC=kernel/mlx5/cong.c
names=$(grep -oE '"(rp|np)_[a-z0-9_]+"' "$CONG_SRC" 2> /dev/null | tr -d '"' | awk '!seen[$0]++')
[ -n "$names" ]
result "$CONG_SRC lists DCQCN parameters and counters" $? "no \"rp_*\"/\"np_*\" names found"
printf '%s\n' "$names" |
	check_words rocectl-dcqcn.8 "names every DCQCN parameter and counter of $CONG_SRC"

exit $status
