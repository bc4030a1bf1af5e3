# SPDX-License-Identifier: GPL-2.0
#
# rocectl: build the module (kbuild, against KVER's headers) and the tool.
#
#   make                  module and tool
#   make module           rocectl.ko against /lib/modules/$(KVER)/build
#   make user             the rocectl tool
#   make simnic           the simulated devices the tests and the demo use:
#                         the DCB NIC, the RDMA device with hardware counters
#   make test-tools       the tests' programs (qptraffic, nlfuzz)
#   make style            checkpatch, sparse and -Werror gates
#   make check            the test suite CI runs (module, tool, QEMU guests
#                         on every kernel series, the debug kernel)
#   make check-full       make check with every scenario on every lane: run
#                         it before resolving an issue that touches kernel/
#   make check-unit       the host-only tier: builds for the default kernel,
#                         unit tests, style gates; no guest
#   make check-quick      builds, unit tests, style, one guest boot with the
#                         core scenarios (no DKMS, debug kernel or demo)
#   make check-bench      the benchmark gate: the packet rows' on/floor in
#                         --icount mode against tests/bench/baseline
#                         (tests/bench/gate.sh; one guest boot)
#   make check-debug      the debug-kernel lane with every kernel-path
#                         scenario (make check runs it with fewer)
#   make check-ofed       build against MLNX_OFED / DOCA-OFED's kernel tree
#                         and load beside it in the guest (OFED=DIR; a SKIP
#                         where there is none)
#   make check-hw         on a host with an RDMA NIC (root): the hardware
#                         acceptance run, each of rocectl's hardware paths
#                         against rdma, ethtool, dcb and perftest, with a
#                         report (tests/hw/accept.sh; HW_ARGS="--help")
#   make demo             build what it needs, boot a guest and show rocectl
#                         on soft-RoCE
#   make install          module, tool, man pages, completion, uapi header,
#                         systemd unit, udev rule, modprobe.d/modules-load.d
#   make uninstall        remove what install put in place
#   make dkms-install     register the sources with DKMS, build and install
#   make dkms-uninstall   remove them from DKMS
#   make sign             sign rocectl.ko for Secure Boot (MOK_KEY, MOK_CERT)
#
# KVER defaults to the running kernel; set it to build for another one.
# Where MLNX_OFED / DOCA-OFED is built for KVER, the module is built against
# it (Kbuild); OFED=DIR names its tree, OFED=no the kernel's own RDMA stack.
# install honours DESTDIR and PREFIX (/usr/local); SYSCONFDIR is /etc.

KVER ?= $(shell uname -r)
KERNELDIR ?= /lib/modules/$(KVER)/build
PWD := $(CURDIR)
VERSION := $(shell sed -n 's/^\#define ROCECTL_VERSION "\(.*\)"/\1/p' include/rocectl_version.h)

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The Prometheus rules and the Grafana dashboard (rocectl-exporter(8)).
DATADIR ?= $(PREFIX)/share/rocectl
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc
# udev and kmod read /usr/lib and /etc, never /usr/local: a /usr install
# (a package) uses /usr/lib, any other goes to /etc.
SYSTEMLIB := $(if $(filter /usr,$(PREFIX)),/usr/lib,$(SYSCONFDIR))
UDEVRULESDIR ?= $(SYSTEMLIB)/udev/rules.d
MODPROBEDIR ?= $(SYSTEMLIB)/modprobe.d
MODULESLOADDIR ?= $(SYSTEMLIB)/modules-load.d
MODDIR ?= /lib/modules/$(KVER)/updates
DKMSSRC ?= /usr/src/rocectl-$(VERSION)

MOK_KEY ?= /var/lib/dkms/mok.key
MOK_CERT ?= /var/lib/dkms/mok.pub
SIGN_HASH ?= sha256

all: module user

module:
	@test -d $(KERNELDIR) || { echo "No kernel build tree at $(KERNELDIR):" \
		"install linux-headers-$(KVER) or set KVER=/KERNELDIR=." >&2; exit 1; }
	$(MAKE) -C $(KERNELDIR) M=$(PWD) modules

user:
	$(MAKE) -C user

simnic: module
	@test -d $(KERNELDIR) || { echo "No kernel build tree at $(KERNELDIR):" \
		"install linux-headers-$(KVER) or set KVER=/KERNELDIR=." >&2; exit 1; }
	$(MAKE) -C $(KERNELDIR) M=$(PWD)/tests/simnic modules
	$(MAKE) -C $(KERNELDIR) M=$(PWD)/tests/simrdma modules

test-tools:
	$(MAKE) -C tests/tools

style:
	tests/style.sh

# The uapi header, kernel/netlink/netlink_gen.[ch], user/lib/nl_spec.h and
# tests/tools/nlfuzz_spec.h, from the netlink spec
# (include/netlink/specs/rocectl.yaml) with the kernel's ynl-gen and lib.
spec:
	include/netlink/generate.sh

check:
	tests/run

check-full:
	tests/run --full

check-unit:
	tests/run --unit

check-quick:
	tests/run --quick

check-debug:
	tests/debug/run.sh full

check-bench:
	tests/bench/gate.sh

# The exporter soaked against a real Prometheus (tests/guest/soak.sh).
check-soak:
	$(MAKE) -C tests/tools asan
	VM_TIMEOUT=3600 tests/run --quick soak

check-hw:
	tests/hw/accept.sh $(HW_ARGS)

check-ofed:
	tests/ofed/run.sh $(filter-out no,$(OFED))

demo:
	tests/demo.sh

# Turns a template's @SBINDIR@ and @SYSCONFDIR@ into the install paths.
SUBST = sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g'

install: install-module install-user

install-module: module
	install -D -m 0644 rocectl.ko $(DESTDIR)$(MODDIR)/rocectl.ko
	if [ -f rocectl_mlx5.ko ]; then \
		install -D -m 0644 rocectl_mlx5.ko $(DESTDIR)$(MODDIR)/rocectl_mlx5.ko; fi
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); \
	else echo "DESTDIR set: run depmod -a $(KVER) on the target."; fi

install-user: user
	install -D -m 0755 user/rocectl $(DESTDIR)$(SBINDIR)/rocectl
	install -d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man5
	install -m 0644 user/man/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 user/man/*.5 $(DESTDIR)$(MANDIR)/man5/
	install -D -m 0644 user/completion/rocectl $(DESTDIR)$(BASHCOMPDIR)/rocectl
	install -D -m 0644 include/uapi/linux/rocectl.h $(DESTDIR)$(INCLUDEDIR)/linux/rocectl.h
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(UDEVRULESDIR)
	$(SUBST) user/system/rocectl.service.in > $(DESTDIR)$(UNITDIR)/rocectl.service
	$(SUBST) user/system/rocectl-exporter.service.in > $(DESTDIR)$(UNITDIR)/rocectl-exporter.service
	$(SUBST) user/system/rocectl-events.service.in > $(DESTDIR)$(UNITDIR)/rocectl-events.service
	$(SUBST) user/system/rocectl-qp-follow.service.in > $(DESTDIR)$(UNITDIR)/rocectl-qp-follow.service
	$(SUBST) user/system/90-rocectl.rules.in > $(DESTDIR)$(UDEVRULESDIR)/90-rocectl.rules
	install -D -m 0644 user/system/modprobe.conf $(DESTDIR)$(MODPROBEDIR)/rocectl.conf
	install -D -m 0644 user/system/modules-load.conf $(DESTDIR)$(MODULESLOADDIR)/rocectl.conf
	install -D -m 0644 user/system/rocectl.rules.yml $(DESTDIR)$(DATADIR)/prometheus/rocectl.rules.yml
	install -D -m 0644 user/system/rocectl-dashboard.json $(DESTDIR)$(DATADIR)/grafana/rocectl-dashboard.json
	@# The operator's policy is never overwritten.
	@if [ ! -e $(DESTDIR)$(SYSCONFDIR)/rocectl/rocectl.conf ]; then \
		install -D -m 0644 user/system/rocectl.conf $(DESTDIR)$(SYSCONFDIR)/rocectl/rocectl.conf; \
	fi

uninstall:
	rm -f $(DESTDIR)$(MODDIR)/rocectl.ko $(DESTDIR)$(MODDIR)/rocectl_mlx5.ko
	rm -f $(DESTDIR)$(SBINDIR)/rocectl
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(wildcard user/man/*.8)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(wildcard user/man/*.5)))
	rm -f $(DESTDIR)$(BASHCOMPDIR)/rocectl $(DESTDIR)$(INCLUDEDIR)/linux/rocectl.h
	rm -f $(DESTDIR)$(UNITDIR)/rocectl.service $(DESTDIR)$(UNITDIR)/rocectl-exporter.service
	rm -f $(DESTDIR)$(UNITDIR)/rocectl-events.service $(DESTDIR)$(UNITDIR)/rocectl-qp-follow.service
	rm -f $(DESTDIR)$(UDEVRULESDIR)/90-rocectl.rules
	rm -f $(DESTDIR)$(MODPROBEDIR)/rocectl.conf $(DESTDIR)$(MODULESLOADDIR)/rocectl.conf
	rm -f $(DESTDIR)$(DATADIR)/prometheus/rocectl.rules.yml $(DESTDIR)$(DATADIR)/grafana/rocectl-dashboard.json
	-rmdir $(DESTDIR)$(DATADIR)/prometheus $(DESTDIR)$(DATADIR)/grafana $(DESTDIR)$(DATADIR) 2>/dev/null
	@# The policy goes only if the operator never changed it.
	@if cmp -s user/system/rocectl.conf $(DESTDIR)$(SYSCONFDIR)/rocectl/rocectl.conf; then \
		rm -f $(DESTDIR)$(SYSCONFDIR)/rocectl/rocectl.conf; \
		rmdir $(DESTDIR)$(SYSCONFDIR)/rocectl 2>/dev/null || true; \
	fi
	@if [ -z "$(DESTDIR)" ] && [ -d /lib/modules/$(KVER) ]; then depmod -a $(KVER); fi

# The files DKMS builds from: Kbuild, dkms.conf, kernel/ and include/.
dkms-src:
	install -d $(DESTDIR)$(DKMSSRC)
	cp -r Kbuild dkms.conf kernel include $(DESTDIR)$(DKMSSRC)/
	find $(DESTDIR)$(DKMSSRC) \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' \
		-o -name '*.mod' -o -name '*.mod.c' \) -delete

dkms-install: dkms-src
	dkms add -m rocectl -v $(VERSION)
	dkms build -m rocectl -v $(VERSION) -k $(KVER)
	dkms install -m rocectl -v $(VERSION) -k $(KVER)

dkms-uninstall:
	-dkms remove -m rocectl -v $(VERSION) --all
	rm -rf $(DESTDIR)$(DKMSSRC)

# Secure Boot refuses unsigned modules: sign with a key enrolled in the
# machine owner's list (mokutil --import $(MOK_CERT)). DKMS signs the
# modules it builds with the same key pair on its own.
sign: module
	for m in rocectl.ko rocectl_mlx5.ko; do [ ! -f $$m ] || \
		$(KERNELDIR)/scripts/sign-file $(SIGN_HASH) $(MOK_KEY) $(MOK_CERT) $$m || exit 1; done

clean:
	@if [ -d $(KERNELDIR) ]; then $(MAKE) -C $(KERNELDIR) M=$(PWD) clean; fi
	$(MAKE) -C user clean
	@if [ -d $(KERNELDIR) ]; then $(MAKE) -C $(KERNELDIR) M=$(PWD)/tests/simnic clean; fi
	@if [ -d $(KERNELDIR) ]; then $(MAKE) -C $(KERNELDIR) M=$(PWD)/tests/simrdma clean; fi
	$(MAKE) -C tests/tools clean
	rm -rf tests/unit/build

.PHONY: all module user simnic test-tools style spec check check-full check-unit check-quick check-debug check-bench check-soak check-hw check-ofed demo clean install install-module install-user \
	uninstall dkms-src dkms-install dkms-uninstall sign
