#!/bin/sh
# Fetches the nested runner's kernel: Debian's stock linux-image-amd64 (the
# versioned package it depends on), unpacked with dpkg-deb, never installed.
# Keeps only vmlinuz and the modules the small VM needs: /dev/kvm (kvm,
# kvm_amd, ccp, irqbypass) and the ports to the host (virtio_pci,
# virtio_console), with whatever they depend on, uncompressed,
# because busybox insmod in the VM may not decompress them.
#
#   harness/nested/fetch-kernel.sh CACHEDIR
#
# Leaves in CACHEDIR: vmlinuz, modules/*.ko, modules.dep (depmod format, flat
# paths), modules.load (load order, dependencies first), modules.want (the list
# asked for: a cache made for another list is fetched again), kernel.version and
# .complete (the stamp the build depends on).  Idempotent: a complete cache is
# left alone; ENTRYLAB_NESTED_REFETCH=1 fetches again.  Needs apt lists
# (apt-get update) and dpkg-deb; root is not required.
# Word splitting of module lists is intended (set -f below).
# shellcheck disable=SC2086
set -eu

me=fetch-kernel.sh
want=${ENTRYLAB_NESTED_MODULES:-"kvm kvm_amd ccp irqbypass virtio_pci virtio_console"}

die() {
	echo "$me: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: $me CACHEDIR (e.g. build/nested/cache)"
cache=$1

cache_complete() {
	[ -f "$cache/.complete" ] && [ -f "$cache/vmlinuz" ] && [ -f "$cache/modules.load" ] ||
		return 1
	while read -r m; do
		[ -f "$cache/modules/$m" ] || return 1
	done <"$cache/modules.load"
	[ "$(cat "$cache/modules.want" 2>/dev/null)" = "$want" ]
}

if [ "${ENTRYLAB_NESTED_REFETCH:-0}" != 1 ] && cache_complete; then
	echo "$me: $cache is up to date ($(cat "$cache/.complete"))"
	exit 0
fi

command -v apt-get >/dev/null || die "apt-get not found: the nested runner needs Debian's kernel"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found; apt-get install dpkg"

# The meta package names the current ABI, e.g. linux-image-6.1.0-57-amd64.
find_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *|\{0,1\}Depends: *\(linux-image-[0-9][^ ]*\).*/\1/p' | head -n 1
}
pkg=$(find_pkg)
if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
	echo "$me: apt knows no linux-image-amd64; running apt-get update once"
	apt-get update -qq || die "apt-get update failed; check the network and apt sources"
	pkg=$(find_pkg)
fi
[ -n "$pkg" ] || die "apt knows no linux-image-amd64; run apt-get update (as root) first"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/entrylab-kernel.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# As root, apt drops to _apt for downloads, which cannot write into our
# private temporary directory: download as root instead.
sandbox=
[ "$(id -u)" = 0 ] && sandbox="-o APT::Sandbox::User=root"
echo "$me: downloading $pkg"
if ! (cd "$tmp" && apt-get download -q $sandbox "$pkg"); then
	# Stale package lists name a version the mirror no longer has: refresh once.
	echo "$me: download failed; refreshing the package lists once"
	apt-get update -qq || die "apt-get update failed; check the network and apt sources"
	pkg=$(find_pkg)
	[ -n "$pkg" ] || die "apt knows no linux-image-amd64 after apt-get update"
	(cd "$tmp" && apt-get download -q $sandbox "$pkg") ||
		die "apt-get download $pkg failed; check the network and apt sources"
fi
deb=$(ls "$tmp"/*.deb)
dpkg-deb -x "$deb" "$tmp/x" || die "dpkg-deb -x $deb failed"
version=$(dpkg-deb -f "$deb" Version)

kver=$(cd "$tmp/x/lib/modules" && for d in *; do echo "$d"; break; done)
[ -n "$kver" ] || die "$pkg has no lib/modules/"
vmlinuz=$tmp/x/boot/vmlinuz-$kver
[ -f "$vmlinuz" ] || die "$pkg has no boot/vmlinuz-$kver"

# Module name (underscores, as in .modinfo depends=) -> file, for every module.
find "$tmp/x/lib/modules/$kver" -name '*.ko' -o -name '*.ko.*' |
	awk -F/ '{ n = $NF; sub(/\.ko(\..*)?$/, "", n); gsub(/-/, "_", n); print n, $0 }' \
		>"$tmp/index"

stage=$tmp/stage
mkdir -p "$stage/modules"

# Copies one module into the stage, uncompressed; prints its file name.
fetch_module() {
	src=$(awk -v n="$1" '$1 == n { print $2; exit }' "$tmp/index")
	[ -n "$src" ] || die "$pkg has no module $1 (is it built in? see boot/config-$kver)"
	base=$(basename "$src")
	case $base in
	*.ko) out=$base; cp "$src" "$stage/modules/$out" ;;
	*.ko.xz) out=${base%.xz}; xz -dc "$src" >"$stage/modules/$out" ;;
	*.ko.gz) out=${base%.gz}; gzip -dc "$src" >"$stage/modules/$out" ;;
	*.ko.zst)
		out=${base%.zst}
		command -v zstd >/dev/null || die "$base is zstd-compressed; apt-get install zstd"
		zstd -qdc "$src" >"$stage/modules/$out"
		;;
	*) die "$base: unknown module compression" ;;
	esac
	echo "$out"
}

# Names of the modules a module file needs (its .modinfo depends= string).
module_deps() {
	tr '\0' '\n' <"$1" | LC_ALL=C grep -a -m 1 '^depends=' | cut -d= -f2 | tr ',' ' '
}

# Module names are plain words: let the lists below split on blanks.
set -f

# Walk the dependency closure; "name file deps..." per module in $tmp/graph.
: >"$tmp/graph"
set -- $want
while [ $# -gt 0 ]; do
	name=$1
	shift
	grep -q "^$name " "$tmp/graph" && continue
	file=$(fetch_module "$name")
	deps=$(module_deps "$stage/modules/$file")
	echo "$name $file $deps" >>"$tmp/graph"
	set -- "$@" $deps
done

deps_of() {
	awk -v n="$1" '$1 == n { $1 = ""; $2 = ""; print }' "$tmp/graph"
}

# Load order: a module goes after everything it depends on.
: >"$tmp/order"
left=$(cut -d' ' -f1 "$tmp/graph")
while [ -n "$left" ]; do
	next=
	for name in $left; do
		ready=1
		for d in $(deps_of "$name"); do
			grep -qx "$d" "$tmp/order" || ready=0
		done
		if [ $ready = 1 ]; then
			echo "$name" >>"$tmp/order"
		else
			next="$next $name"
		fi
	done
	next=${next# }
	[ "$next" != "$left" ] || die "dependency cycle among: $next"
	left=$next
done

# modules.load: file names in load order.  modules.dep: as depmod writes it,
# each module with its whole dependency closure, listed so that loading right
# to left works.
awk -v dep="$stage/modules.dep" -v load="$stage/modules.load" '
	NR == FNR {
		file[$1] = $2; deps[$1] = ""
		for (i = 3; i <= NF; i++) deps[$1] = deps[$1] " " $i
		next
	}
	{
		name = $1; ord[++n] = name
		split("", inc)
		k = split(deps[name], ds, " ")
		for (i = 1; i <= k; i++) {
			inc[ds[i]] = 1
			m = split(clo[ds[i]], cs, " ")
			for (j = 1; j <= m; j++) inc[cs[j]] = 1
		}
		s = ""; line = file[name] ":"
		for (i = n - 1; i >= 1; i--)
			if (ord[i] in inc) { s = s " " ord[i]; line = line " " file[ord[i]] }
		clo[name] = s
		print line > dep
		print file[name] > load
	}' "$tmp/graph" "$tmp/order"

cp "$vmlinuz" "$stage/vmlinuz"

# Under TCG the bzImage's own decompressor costs more than a second of every
# boot.  Unpack the payload once here (boot protocol: setup_sects at 0x1f1,
# payload_offset/length at 0x248/0x24c); the ELF vmlinux boots through its
# PVH note.  If this fails the runner boots vmlinuz, only slower.
extract_vmlinux() {
	setup=$(od -A n -t u1 -j 497 -N 1 "$vmlinuz" | tr -d ' ')
	# shellcheck disable=SC2046
	set -- $(od -A n -t u4 -j 584 -N 8 "$vmlinuz")
	[ -n "$setup" ] && [ $# -eq 2 ] || return 1
	start=$(((setup + 1) * 512 + $1))
	magic=$(tail -c +$((start + 1)) "$vmlinuz" | od -A n -t x1 -N 4 | tr -d ' ')
	case $magic in
	fd377a58) unpack="xz -dc --single-stream" ;;
	1f8b*) unpack="gzip -dc" ;;
	28b52ffd) unpack="zstd -qdc" ;;
	*) return 1 ;;
	esac
	# gzip warns about the trailing size word the kernel build appends.
	tail -c +$((start + 1)) "$vmlinuz" | head -c "$2" | $unpack >"$stage/vmlinux" 2>/dev/null ||
		[ "${unpack%% *}" = gzip ]
	[ "$(od -A n -c -N 4 "$stage/vmlinux" | tr -d ' ')" = '177ELF' ]
}
if ! extract_vmlinux; then
	echo "$me: could not unpack vmlinux from vmlinuz; the VM will boot slower" >&2
	rm -f "$stage/vmlinux"
fi
echo "$kver" >"$stage/kernel.version"
echo "$want" >"$stage/modules.want"
echo "$pkg $version" >"$stage/.complete"

# Replace the cache in one step so a failed fetch never leaves half of one.
mkdir -p "$(dirname "$cache")"
rm -rf "$cache.old"
[ -e "$cache" ] && mv "$cache" "$cache.old"
mv "$stage" "$cache" 2>/dev/null || cp -R "$stage" "$cache"
rm -rf "$cache.old"
echo "$me: $cache: $pkg $version, modules: $(tr '\n' ' ' <"$cache/modules.load")"
