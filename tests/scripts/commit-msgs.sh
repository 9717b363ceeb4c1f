#!/bin/sh
# The commit-message rules, checked on every commit since a recorded base:
#
#   tests/scripts/commit-msgs.sh [SRC]      (SRC: the repository, default .)
#
# The base is the commit named in .ci/commit-base: commits up to it were
# written before these rules and are not judged (docs/history.md describes
# the ones whose messages mislead).  Merge commits are not judged (git
# writes their subjects).  For each other commit in BASE..HEAD:
#
#   - the subject is `area: summary`: area is lower case (a folder or a
#     subsystem: guest-kernel, cli, vmm, tests, docs, ...; several joined by
#     ',' or '/'), then ': ', then the summary;
#   - the summary is imperative: its first word is not a past tense or a
#     third person ("added", "adds", "adding" fail; "add" passes).  The test
#     is a heuristic on the ending (-ed, -ing, -s but not -ss/-us/-is), with
#     the exceptions listed in $verbs_ok below;
#   - the subject is at most 72 characters and does not end with '.';
#   - the second line is empty and a body follows, unless the change is
#     tiny: at most 5 lines added and removed in all (git's --numstat; a
#     binary file is never tiny).
#
# Each broken rule is printed as `COMMIT: rule`; the exit status is 1 when
# any, 0 when none.  Exits 77 (ctest's SKIP_RETURN_CODE) with the reason
# when there is nothing to judge against: no git or no history (a
# tarball), no .ci/commit-base, or a base this clone lacks (a shallow clone).
set -u
src=${1:-.}
base_file=$src/.ci/commit-base
skip() { echo "SKIP: $*"; exit 77; }
command -v git >/dev/null 2>&1 || skip "git is not installed"
git -C "$src" rev-parse --verify -q HEAD >/dev/null 2>&1 ||
	skip "$src has no git history (a tarball?)"
[ -r "$base_file" ] || skip "no $base_file naming the base commit"
base=$(sed -n '/^[0-9a-f]\{7,40\}$/{p;q;}' "$base_file")
[ -n "$base" ] || skip "$base_file names no commit"
git -C "$src" cat-file -e "$base^{commit}" 2>/dev/null ||
	skip "base $base is not in this clone (shallow?)"

# First words that end like a past tense or a third person but are
# imperatives (or a name).
verbs_ok=' alias bias embed feed need seed shed speed bring ring spring string '
tiny=5
bad=0
n=0
for c in $(git -C "$src" rev-list --no-merges --reverse "$base..HEAD"); do
	n=$((n + 1))
	short=$(git -C "$src" rev-parse --short "$c")
	subject=$(git -C "$src" log -1 --format=%s "$c")
	line2=$(git -C "$src" log -1 --format=%B "$c" | sed -n 2p)
	body=$(git -C "$src" log -1 --format=%b "$c" | grep -c '[^[:space:]]')
	say() { echo "$short: $*  [$subject]"; bad=$((bad + 1)); }
	len=$(printf '%s' "$subject" | wc -m)
	[ "$len" -le 72 ] || say "subject is $len characters (at most 72)"
	case $subject in *.) say "subject ends with '.'" ;; esac
	area=${subject%%: *}
	if [ "$area" = "$subject" ] ||
	   ! printf '%s\n' "$area" | grep -q '^[a-z0-9][a-z0-9_.+-]*\([,/] \{0,1\}[a-z0-9][a-z0-9_.+-]*\)*$'; then
		say "subject is not 'area: summary' (area lower case, then ': ')"
	else
		word=$(printf '%s\n' "${subject#*: }" | sed 's/[^A-Za-z].*//' | tr 'A-Z' 'a-z')
		case " $verbs_ok " in *" $word "*) ;; *)
			case $word in
			*ed|*ing) say "summary starts with '$word': say it as an imperative" ;;
			*ss|*us|*is) ;;
			*s) say "summary starts with '$word': say it as an imperative" ;;
			esac ;;
		esac
	fi
	[ -z "$line2" ] || say "second line is not empty"
	if [ "$body" -eq 0 ]; then
		changed=$(git -C "$src" show --format= --numstat "$c" |
			awk '$1 == "-" { t += 1000000; next } { t += $1 + $2 } END { print t + 0 }')
		[ "$changed" -le "$tiny" ] ||
			say "no body, and $changed lines changed (a body is required above $tiny)"
	fi
done
echo "commit-msgs: $n commits since ${base%"${base#???????????}"}, $bad problems"
[ "$bad" -eq 0 ]
