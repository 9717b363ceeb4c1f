#!/bin/sh
# include-cycles.sh SRC OBJDIR [calls]
#
# The cycles (strongly connected components) of the guest kernel's
# dependency graph, for keeping the low layers free of upward dependencies.
#   SRC     the guest-kernel/ source dir
#   OBJDIR  CMakeFiles/entrylab-kernel.dir of a kernel build (its objects
#           say which file defines which symbol)
# Nodes are modules: foo.h, foo.c and foo.S are one.  Edges:
#   A -> B  a file of A has #include "B.h" (a guest-kernel file)
#   A -> B  a header of A (comments stripped) uses a global symbol that B's
#           object defines: calls it, takes x.f, x->f or x[i], or declares
#           it extern (cpu.h's inline accessors calling cpu_fault_panic())
#   A -> B  with `calls`: A's object uses a symbol B's object defines
# Prints each component of more than one module, largest first, then a
# summary line.  POSIX sh, awk and binutils' nm.
set -eu
if [ $# -lt 2 ]; then
	echo "usage: $0 GUEST_KERNEL_SRC OBJDIR [calls]" >&2
	exit 2
fi
src=$(cd "$1" && pwd)
obj=$(cd "$2" && pwd)
mode=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$src"

find . -name '*.[chS]' | sed 's|^\./||' | sort >"$tmp/files"

# file -> included file (by path from guest-kernel/, or relative to the includer)
while read -r f; do
	d=$(dirname "$f")
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		if [ -f "$h" ]; then
			echo "$f $h"
		elif [ -f "$d/$h" ]; then
			echo "$f $(cd "$d" && realpath --relative-to="$src" "$h")"
		fi
	done
done <"$tmp/files" >"$tmp/edges"

# symbol -> source file, from each object of a guest-kernel source
symbols() {
	find "$obj" -name '*.obj' -o -name '*.o' | while read -r o; do
		s=${o#"$obj"/}
		s=${s%.obj}
		s=${s%.o}
		[ -f "$s" ] || continue
		nm -g "$1" "$o" | awk -v s="$s" '{ print $NF, s }'
	done | sort -u
}
symbols --defined-only >"$tmp/defs"

# header -> defining file, for each global symbol the header uses
grep '\.h$' "$tmp/files" | while read -r h; do
	sed 's|//.*||' "$h" | awk '
		{
			line = $0
			while (line != "") {
				if (incomment) {
					i = index(line, "*/")
					if (!i)
						break
					line = substr(line, i + 2)
					incomment = 0
				} else {
					i = index(line, "/*")
					if (!i) {
						printf "%s", line
						break
					}
					printf "%s ", substr(line, 1, i - 1)
					line = substr(line, i + 2)
					incomment = 1
				}
			}
			print ""
		}' | awk '
		/^[ \t]*extern[ \t]/ {
			n = split($0, w, /[^A-Za-z0-9_]+/)
			for (i = 1; i <= n; i++)
				if (w[i] != "")
					print w[i]
			next
		}
		{
			line = $0
			while (match(line, /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\(|\.|->|\[)/)) {
				tok = substr(line, RSTART, RLENGTH)
				sub(/[^A-Za-z0-9_].*/, "", tok)
				print tok
				line = substr(line, RSTART + RLENGTH)
			}
		}' | sort -u | sed "s|\$| $h|"
done >"$tmp/uses"
awk 'NR == FNR { def[$1] = def[$1] " " $2; next }
     ($1 in def) { n = split(def[$1], d, " "); for (i = 1; i <= n; i++) print $2, d[i] }' \
	"$tmp/defs" "$tmp/uses" >>"$tmp/edges"

if [ "$mode" = calls ]; then
	symbols --undefined-only >"$tmp/undefs"
	awk 'NR == FNR { def[$1] = $2; next } ($1 in def) { print $2, def[$1] }' \
		"$tmp/defs" "$tmp/undefs" >>"$tmp/edges"
fi

# modules, then Tarjan's algorithm
sed 's/\.[chS] / /; s/\.[chS]$//' "$tmp/edges" | awk '$1 != $2' | sort -u >"$tmp/medges"
sed 's/\.[chS]$//' "$tmp/files" | awk '
NR == FNR {
	if (!($1 in nfiles))
		nmodules++
	nfiles[$1]++
	total++
	next
}
function strong(v,    i, w) {
	index_[v] = low[v] = ++counter
	stack[++sp] = v
	onstack[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in index_)) {
			strong(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (onstack[w] && index_[w] < low[v])
			low[v] = index_[w]
	}
	if (low[v] == index_[v]) {
		ncomp++
		do {
			w = stack[sp--]
			onstack[w] = 0
			size[ncomp]++
			files[ncomp] += nfiles[w]
			members[ncomp] = members[ncomp] " " w
		} while (w != v)
	}
}
{
	nedges++
	if (!($1 in nout)) {
		nout[$1] = 0
		node[++nn] = $1
	}
	if (!($2 in nout)) {
		nout[$2] = 0
		node[++nn] = $2
	}
	out[$1, ++nout[$1]] = $2
}
END {
	for (i = 1; i <= nn; i++)
		if (!(node[i] in index_))
			strong(node[i])
	for (c = 1; c <= ncomp; c++)
		if (size[c] > 1) {
			cycles++
			cmodules += size[c]
			cfiles += files[c]
			print "C " size[c] " modules, " files[c] " files:" members[c]
		}
	printf "S %d files in %d modules, %d edges; %d cycles with %d modules, %d files\n",
	       total, nmodules, nedges, cycles, cmodules, cfiles
}' - "$tmp/medges" | sort -k1,1 -k2,2nr | sed 's/^[CS] //'
