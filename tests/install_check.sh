#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Installation on the build machine: make install/uninstall into a staging
# root (DESTDIR, PREFIX), the systemd unit verified by systemd-analyze, the
# versions of module, tool and DKMS package in agreement, make sign with a
# throwaway key. One result line per check; exit 0 only if all passed.
#
#   tests/install_check.sh [KVER]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
# shellcheck source=tests/results.sh
. tests/results.sh
plan 12	# four for each of two prefixes; unit, versions, dkms.conf, sign
KVER=${1:-$(uname -r)}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
failed=0

result() {	# result NAME OK [WHY]
	if [ "$2" = 0 ]; then
		echo "ok - install: $1"
	else
		echo "not ok - install: $1 # ${3:-failed}"
		failed=1
	fi
}

VERSION=$(sed -n 's/^#define ROCECTL_VERSION "\(.*\)"/\1/p' include/rocectl_version.h)

# --- make install / uninstall ------------------------------------------------------
for prefix in /usr /usr/local; do
	dest=$W/root$prefix
	log=$(make -s install DESTDIR="$dest" PREFIX="$prefix" KVER="$KVER" 2>&1)
	code=$?
	sys=/etc
	[ "$prefix" = /usr ] && sys=/usr/lib
	missing=
	for f in "/lib/modules/$KVER/updates/rocectl.ko" \
		 "/lib/modules/$KVER/updates/rocectl_mlx5.ko" "$prefix/sbin/rocectl" \
		 "$prefix/share/man/man8/rocectl.8" "$prefix/share/man/man8/rocectl-watchdog.8" \
		 "$prefix/share/man/man5/rocectl.conf.5" \
		 "$prefix/share/bash-completion/completions/rocectl" \
		 "$prefix/include/linux/rocectl.h" "$prefix/lib/systemd/system/rocectl.service" \
		 "$prefix/lib/systemd/system/rocectl-exporter.service" \
		 "$prefix/lib/systemd/system/rocectl-events.service" \
		 "$prefix/lib/systemd/system/rocectl-qp-follow.service" \
		 "$prefix/share/man/man8/rocectl-exporter.8" \
		 "$prefix/share/rocectl/prometheus/rocectl.rules.yml" \
		 "$prefix/share/rocectl/grafana/rocectl-dashboard.json" \
		 "$sys/udev/rules.d/90-rocectl.rules" "$sys/modprobe.d/rocectl.conf" \
		 "$sys/modules-load.d/rocectl.conf" /etc/rocectl/rocectl.conf; do
		[ -f "$dest$f" ] || missing="$missing $f"
	done
	# The templates name the installed tool and policy, nothing unexpanded.
	grep -q "ExecStart=$prefix/sbin/rocectl apply /etc/rocectl/rocectl.conf" \
		"$dest$prefix/lib/systemd/system/rocectl.service" || missing="$missing (unit's ExecStart)"
	grep -q "ExecStart=$prefix/sbin/rocectl exporter listen 127.0.0.1:9798" \
		"$dest$prefix/lib/systemd/system/rocectl-exporter.service" || missing="$missing (exporter unit's ExecStart)"
	grep -q "ExecStart=$prefix/sbin/rocectl qp counters follow file /etc/rocectl/rocectl.conf" \
		"$dest$prefix/lib/systemd/system/rocectl-qp-follow.service" || missing="$missing (qp-follow unit's ExecStart)"
	grep -rqI '@[A-Z]*@' "$dest" && missing="$missing (unexpanded @VAR@)"
	[ $code = 0 ] && [ -z "$missing" ]
	result "make install DESTDIR PREFIX=$prefix puts every file in place" $? "$missing $log"

	# The operator's policy survives a reinstall and an uninstall.
	echo "watchdog set dev eth9 prio 3" >> "$dest/etc/rocectl/rocectl.conf"
	make -s install-user DESTDIR="$dest" PREFIX="$prefix" > /dev/null 2>&1
	grep -q 'eth9' "$dest/etc/rocectl/rocectl.conf"
	result "make install PREFIX=$prefix keeps an edited policy file" $?

	make -s uninstall DESTDIR="$dest" PREFIX="$prefix" KVER="$KVER" > /dev/null 2>&1
	left=$(cd "$dest" && find . -type f | sort | tr '\n' ' ')
	[ "$left" = "./etc/rocectl/rocectl.conf " ]
	result "make uninstall PREFIX=$prefix removes everything but the edited policy" $? "left: $left"
	rm -f "$dest/etc/rocectl/rocectl.conf"
	make -s install-user DESTDIR="$dest" PREFIX="$prefix" > /dev/null 2>&1
	make -s uninstall DESTDIR="$dest" PREFIX="$prefix" KVER="$KVER" > /dev/null 2>&1
	left=$(cd "$dest" && find . -type f | tr '\n' ' ')
	[ -z "$left" ]
	result "make uninstall PREFIX=$prefix removes an unedited policy too" $? "left: $left"
done

# --- the systemd unit ------------------------------------------------------------------
# Installed without DESTDIR under a scratch PREFIX, so that the paths in the
# unit exist on this machine for systemd-analyze to check.
dest=$W/verify
make -s install-user PREFIX="$dest/usr" SYSCONFDIR="$dest/etc" > /dev/null 2>&1
out=$(SYSTEMD_LOG_COLOR=0 systemd-analyze verify --man=no \
	"$dest/usr/lib/systemd/system/rocectl.service" \
	"$dest/usr/lib/systemd/system/rocectl-exporter.service" \
	"$dest/usr/lib/systemd/system/rocectl-events.service" \
	"$dest/usr/lib/systemd/system/rocectl-qp-follow.service" 2>&1)
code=$?
[ $code = 0 ] && [ -z "$out" ]
result "systemd-analyze verify accepts rocectl.service, rocectl-exporter.service, rocectl-events.service, rocectl-qp-follow.service" $? "$out"

# --- versions ------------------------------------------------------------------------------
dkms_ver=$(set +u; . ./dkms.conf 2> /dev/null; echo "$PACKAGE_VERSION")
tool_ver=$(user/rocectl -V | awk '{print $2}')
mod_ver=$(modinfo -F version rocectl.ko 2> /dev/null)
[ "$dkms_ver" = "$VERSION" ] && [ "$tool_ver" = "$VERSION" ] && [ "$mod_ver" = "$VERSION" ]
result "one version ($VERSION) for dkms.conf, the tool and the module" $? \
	"dkms.conf $dkms_ver, tool $tool_ver, module $mod_ver"

# --- DKMS: the mlx5 backend where the target kernel has mlx5 -------------------------
# dkms.conf is sourced by DKMS with kernel_source_dir set to the target's
# headers: with the real ones (CONFIG_MLX5_CORE=m) and with a copy of their
# .config without mlx5.
mods() { (set +u; kernel_source_dir=$1; . ./dkms.conf; echo "${BUILT_MODULE_NAME[*]}"); }
mkdir -p "$W/nomlx5"
grep -v '^CONFIG_MLX5_CORE=' "/lib/modules/$KVER/build/.config" > "$W/nomlx5/.config"
with=$(mods "/lib/modules/$KVER/build")
without=$(mods "$W/nomlx5")
[ "$with" = "rocectl rocectl_mlx5" ] && [ "$without" = "rocectl" ]
result "dkms.conf builds rocectl_mlx5 where the kernel has mlx5, only rocectl where not" $? \
	"with mlx5: '$with', without: '$without'"

# --- make sign ---------------------------------------------------------------------------------
openssl req -new -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=rocectl test MOK/" \
	-outform DER -keyout "$W/mok.key" -out "$W/mok.der" > /dev/null 2>&1
bad=
for m in rocectl.ko rocectl_mlx5.ko; do
	cp $m "$W/$m.unsigned"
done
out=$(make -s sign KVER="$KVER" MOK_KEY="$W/mok.key" MOK_CERT="$W/mok.der" 2>&1)
code=$?
for m in rocectl.ko rocectl_mlx5.ko; do
	signer=$(modinfo -F signer $m 2> /dev/null)
	tail -c 28 $m | grep -q '~Module signature appended~' && [ "$signer" = "rocectl test MOK" ] ||
		bad="$bad $m (signer '$signer')"
	cp "$W/$m.unsigned" $m
done
[ $code = 0 ] && [ -z "$bad" ]
result "make sign appends a signature by the MOK key to both modules" $? "exit $code:$bad $out"

exit $failed
