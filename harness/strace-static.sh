#!/bin/sh
# Builds a static strace from Debian's source package (unmodified but for one
# rename a newer linux-libc-dev needs, below), for the
# guest kernel's ptrace tests (tests/kvm: strace -f inside the guest).
#
#   harness/strace-static.sh CACHEDIR
#
# Leaves CACHEDIR/strace (static, x86-64 only: no mpers, no libunwind/libdw,
# no libselinux) and CACHEDIR/.complete ("strace VERSION").  Idempotent: a
# complete cache is left alone; ENTRYLAB_STRACE_REBUILD=1 builds again.
# Needs the source from the archive apt already uses: when apt knows no
# source for strace, a deb-src entry with the same URIs, suites and
# components as the first "Types: deb" stanza of
# /etc/apt/sources.list.d/debian.sources (or a deb-src twin of the first
# "deb" line of /etc/apt/sources.list) is added, as root, and apt-get update
# runs once.  Needs dpkg-source (dpkg-dev), a C compiler, make and libc.a
# (libc6-dev).  Exit status 2 means "cannot build here" (no network, no
# root for the source entry, no tools): the test that uses it skips.
set -eu

me=strace-static.sh

die() {
	echo "$me: $*" >&2
	exit 1
}
cannot() {
	echo "$me: cannot build strace here: $*" >&2
	exit 2
}

[ $# -eq 1 ] || die "usage: $me CACHEDIR (e.g. build/strace-static)"
mkdir -p "$(dirname "$1")"
cache=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

if [ "${ENTRYLAB_STRACE_REBUILD:-0}" != 1 ] && [ -f "$cache/.complete" ] &&
	[ -x "$cache/strace" ]; then
	echo "$me: $cache is up to date ($(cat "$cache/.complete"))"
	exit 0
fi

for t in apt-get dpkg-source make cc; do
	command -v $t >/dev/null || cannot "$t not found (apt-get install dpkg-dev gcc make)"
done

has_source() {
	apt-cache showsrc strace 2>/dev/null | grep -q '^Package: strace'
}

# A deb-src entry for the archive the system's deb entries name.
add_deb_src() {
	[ "$(id -u)" = 0 ] || cannot "apt knows no source for strace and adding a deb-src entry needs root"
	deb822=/etc/apt/sources.list.d/debian.sources
	if [ -f "$deb822" ]; then
		# The first stanza whose Types has deb: keep URIs/Suites/Components/Signed-By.
		awk '
			/^[[:space:]]*$/ { if (take) exit; n = 0; next }
			/^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") take = 1; next }
			/^(URIs|Suites|Components|Signed-By):/ { keep[++n] = $0 }
			END { if (!take) exit 1
			      print "Types: deb-src"; for (i = 1; i <= n; i++) print keep[i] }
		' "$deb822" >/etc/apt/sources.list.d/entrylab-src.sources ||
			cannot "$deb822 has no Types: deb stanza to copy"
	elif [ -f /etc/apt/sources.list ] && grep -q '^deb ' /etc/apt/sources.list; then
		grep -m 1 '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' \
			>/etc/apt/sources.list.d/entrylab-src.list
	else
		cannot "no deb entry in /etc/apt to derive a deb-src entry from"
	fi
	echo "$me: added a deb-src entry; running apt-get update"
	apt-get update -qq || cannot "apt-get update failed (no network to the archive?)"
}

if ! has_source; then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq || true
	fi
	has_source || add_deb_src
	has_source || cannot "apt still knows no source package strace"
fi

# The work directory stays after a failure, with its logs; a success removes it.
work=$cache.work
rm -rf "$work"
mkdir -p "$work"

sandbox=
[ "$(id -u)" = 0 ] && sandbox="-o APT::Sandbox::User=root"
(cd "$work" && apt-get source -q $sandbox strace >apt-source.log 2>&1) ||
	cannot "apt-get source strace failed (no network to the archive?): $(tail -n 3 "$work/apt-source.log")"
src=$(cd "$work" && for d in strace-*/; do echo "${d%/}"; break; done)
[ -d "$work/$src" ] || die "apt-get source left no strace-* directory"

# Debian 12's linux-libc-dev from 6.1.192 on carries Linux's later uapi
# nexthop.h, where struct nexthop_grp's resvd1 became weight_high; strace 6.1's
# rtnl_nh.c still names resvd1 and does not compile.  Follow the header: the
# one change to the source, made only when the installed header needs it.
if grep -q 'weight_high' /usr/include/linux/nexthop.h 2>/dev/null &&
	grep -q 'resvd1' "$work/$src/src/rtnl_nh.c"; then
	sed -i 's/resvd1/weight_high/g' "$work/$src/src/rtnl_nh.c"
fi

# Static, 64-bit personality only, no stack tracing, no SELinux contexts.
mkdir "$work/build"
(cd "$work/build" && LDFLAGS=-static "../$src/configure" --enable-mpers=no \
	--without-libunwind --without-libdw --without-libselinux \
	--disable-gcc-Werror >configure.log 2>&1) ||
	die "configure failed; see the end of $work/build/configure.log: $(tail -n 5 "$work/build/configure.log")"
jobs=${ENTRYLAB_STRACE_JOBS:-2}
(cd "$work/build" && make -j"$jobs" -C src >make.log 2>&1) ||
	die "make failed: $(tail -n 5 "$work/build/make.log")"
bin=$work/build/src/strace
[ -x "$bin" ] || die "make left no src/strace"
if command -v file >/dev/null && ! file "$bin" | grep -q 'statically linked'; then
	die "$bin is not statically linked: $(file "$bin")"
fi

mkdir -p "$cache"
cp "$bin" "$cache/strace.new"
strip "$cache/strace.new" 2>/dev/null || true
mv "$cache/strace.new" "$cache/strace"
echo "strace ${src#strace-}" >"$cache/.complete"
rm -rf "$work"
echo "$me: $cache/strace: strace ${src#strace-}, static"
