// SPDX-License-Identifier: GPL-2.0
/*
 * rocectl check: what the NIC shows only in sysfs -- mlx5's ECN switches
 * and the PCIe link (ASPM, trained speed and width). Read under c->sysfs,
 * which ROCECTL_TEST_SYSFS (tests only) points at a fake tree.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

char *check_sysfs_read(const struct check_ctx *c, char *buf, size_t len,
		       const char *fmt, ...)
{
	char rel[384], path[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", c->sysfs, rel);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* --- 7. ecn ------------------------------------------------------------------- */

void check_ecn(struct check_ctx *c)
{
	const char *nic = c->p->netdev;
	struct finding f = { .any = false };
	static const struct {
		const char *dir, *what;
	} points[] = {
		{ "roce_rp", "reaction point (slows down on CNPs)" },
		{ "roce_np", "notification point (answers CE marks with CNPs)" },
	};
	char buf[32], fix[192], path[256];
	unsigned int i;

	snprintf(path, sizeof(path), "%s/class/net/%s/ecn", c->sysfs, nic);
	if (access(path, F_OK)) {
		finding_add(&f, CHECK_SKIP, NULL,
			    "no ECN sysfs (%s): not a ConnectX (mlx5) netdev", path);
	} else if (c->prio < 0) {
		finding_add(&f, CHECK_SKIP, NULL, "no lossless priority to check ECN on (see pfc)");
	} else {
		for (i = 0; i < 2; i++) {
			if (!check_sysfs_read(c, buf, sizeof(buf), "class/net/%s/ecn/%s/enable/%d",
					      nic, points[i].dir, c->prio)) {
				finding_add(&f, CHECK_SKIP, NULL, "no %s/ecn/%s/enable/%d",
					    path, points[i].dir, c->prio);
			} else if (strcmp(buf, "1")) {
				snprintf(fix, sizeof(fix), "echo 1 > /sys/class/net/%s/ecn/%s/enable/%d",
					 nic, points[i].dir, c->prio);
				finding_add(&f, CHECK_WARN, fix,
					    "ECN %s off on priority %d (ecn/%s/enable/%d: %s)",
					    points[i].what, c->prio, points[i].dir, c->prio, buf);
			} else {
				finding_add(&f, CHECK_PASS, NULL,
					    "ECN %s on for priority %d (ecn/%s/enable/%d: 1)",
					    points[i].what, c->prio, points[i].dir, c->prio);
			}
		}
	}
	check_report(c, "ecn", &f);
}

/* --- 8. pcie ------------------------------------------------------------------ */

/* "16.0 GT/s PCIe" (or "8 GT/s"): GT/s, 0 if unreadable. */
static double link_speed(const char *s)
{
	return s ? strtod(s, NULL) : 0;
}

void check_pcie(struct check_ctx *c)
{
	const char *nic = c->p->netdev;
	struct finding f = { .any = false };
	char path[256], target[PATH_MAX], bdf[32], buf[64], cur_s[64], max_s[64], fix[256];
	const char *base, *cs, *ms;
	unsigned int dom, bus, devn, fn, i, cw = 0, mw = 0;
	static const char *const aspm[] = { "l0s_aspm", "l1_aspm" };
	ssize_t n;
	bool any_aspm = false;

	snprintf(path, sizeof(path), "%s/class/net/%s/device", c->sysfs, nic);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0)
		target[n] = '\0';
	base = n > 0 ? strrchr(target, '/') : NULL;
	base = base ? base + 1 : n > 0 ? target : NULL;
	if (!base || sscanf(base, "%x:%x:%x.%x", &dom, &bus, &devn, &fn) != 4) {
		finding_add(&f, CHECK_SKIP, NULL, "%s is not a PCI device (%s)", nic,
			    n > 0 ? target : "no device link: a virtual netdev");
		check_report(c, "pcie", &f);
		return;
	}
	snprintf(bdf, sizeof(bdf), "%.31s", base);

	for (i = 0; i < 2; i++) {
		if (!check_sysfs_read(c, buf, sizeof(buf), "bus/pci/devices/%s/link/%s", bdf, aspm[i]))
			continue;
		any_aspm = true;
		if (!strcmp(buf, "0"))
			continue;
		snprintf(fix, sizeof(fix), "echo 0 > /sys/bus/pci/devices/%s/link/%s (or disable ASPM in the BIOS)",
			 bdf, aspm[i]);
		finding_add(&f, CHECK_WARN, fix, "PCIe ASPM %s is on for %s (link/%s: %s): power saving costs latency and throughput",
			    i ? "L1" : "L0s", bdf, aspm[i], buf);
	}
	if (any_aspm && !f.any)
		finding_add(&f, CHECK_PASS, NULL, "PCIe ASPM L0s and L1 off for %s (link/l0s_aspm, l1_aspm)", bdf);
	else if (!any_aspm)
		finding_add(&f, CHECK_SKIP, NULL, "no ASPM controls for %s in sysfs (kernel without CONFIG_PCIEASPM, or none on the link)", bdf);

	cs = check_sysfs_read(c, cur_s, sizeof(cur_s), "bus/pci/devices/%s/current_link_speed", bdf);
	ms = check_sysfs_read(c, max_s, sizeof(max_s), "bus/pci/devices/%s/max_link_speed", bdf);
	if (check_sysfs_read(c, buf, sizeof(buf), "bus/pci/devices/%s/current_link_width", bdf))
		cw = strtoul(buf, NULL, 10);
	if (check_sysfs_read(c, buf, sizeof(buf), "bus/pci/devices/%s/max_link_width", bdf))
		mw = strtoul(buf, NULL, 10);
	if (!cs || !ms || !cw || !mw || link_speed(ms) <= 0) {
		finding_add(&f, CHECK_SKIP, NULL, "no link speed and width for %s in sysfs", bdf);
	} else if (link_speed(cs) < link_speed(ms) || cw < mw) {
		finding_add(&f, CHECK_WARN, "seat the NIC in a slot of its full speed and width, and check the BIOS PCIe settings",
			    "PCIe link of %s trained at %s x%u, below its %s x%u (current_link_*, max_link_*)",
			    bdf, cs, cw, ms, mw);
	} else {
		finding_add(&f, CHECK_PASS, NULL, "PCIe link of %s at its full %s x%u (current_link_*, max_link_*)",
			    bdf, cs, cw);
	}
	check_report(c, "pcie", &f);
}
