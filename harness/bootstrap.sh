#!/bin/sh
# entrylab set-up for a fresh Debian 12 machine (run as root from the source tree).
#
#   harness/bootstrap.sh main   install what is missing, build, run the main job
#   harness/bootstrap.sh test   install what is missing, build, run the whole test suite
#
# Installs the Debian packages the build, the tests and the nested runner need,
# fetches the nested runner's kernel (Debian's linux-image-amd64, unpacked into
# the build directory, never installed as this machine's kernel), configures
# and builds with CMake.  Idempotent: a second run only rebuilds.
set -eu

job=${1:-}
case "$job" in
main|test) ;;
*) echo "usage: $0 main|test" >&2; exit 2 ;;
esac

src=$(cd "$(dirname "$0")/.." && pwd)
build=${ENTRYLAB_BUILD_DIR:-$src/build}

packages="build-essential cmake pkg-config git libjson-c-dev libelf-dev zlib1g-dev \
liburing-dev libseccomp-dev libinih-dev libcriterion-dev musl-tools gcc-multilib \
qemu-system-x86 qemu-utils busybox-static bash-static cpio xz-utils zstd kmod clang-14 \
libclang-rt-14-dev bochs bochsbios vgabios bochs-term grub-pc-bin grub-common xorriso mtools"
# The test job builds Linux's x86 selftests from this (harness/x86-selftests.sh):
# installed here, before the build, so no package changes while tests run.
# The fleet tests (tests/fleet/) need Slurm and MUNGE, for slurm-cluster.sh's
# private one-node cluster (it skips without them; installing them starts no
# daemon on these machines, whose policy-rc.d refuses), and GNU parallel.
if [ "$job" = test ]; then packages="$packages linux-source-6.1 slurm-wlm munge parallel"; fi

missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "bootstrap: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi

sh "$src/harness/nested/fetch-kernel.sh" "$build/nested/cache"

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j "$(nproc)"

case "$job" in
main)
	# The main job: boot the guest kernel and print its boot report.
	exec "$build/entrylab" run ;;
test)
	# ctest -j $(nproc) -V: independent entries side by side, every PASS/FAIL/SKIP
	# line with its reason in the log, then each entry's and each tier's time
	# (tests/README.md).  The exit status is ctest's.  Then the warm nested
	# runners the suite started are stopped, not left idling for 10 minutes.
	rc=0
	sh "$src/tests/ctest.sh" "$build" || rc=$?
	"$build/entrylab" runner stop >/dev/null 2>&1 || true
	exit "$rc" ;;
esac
