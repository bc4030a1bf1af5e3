/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Prometheus exposition formats, written into a growing buffer: the
 * text format 0.0.4 and OpenMetrics 1.0.0 (what a scraper asks for).
 */
#ifndef ROCECTL_PROM_H
#define ROCECTL_PROM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum prom_type { PROM_GAUGE, PROM_COUNTER };

struct prom {
	char *buf;
	size_t len, cap;
	bool failed;		/* out of memory: the buffer is incomplete */
	bool openmetrics;
	enum prom_type type;	/* of the current family */
	const char *family;	/* its name, without _total */
	/* Labels left out of every sample (the owners, unless asked: metrics_owners.h). */
	bool (*drop_label)(const char *name);
};

struct prom_label {
	const char *name, *value;
};

void prom_init(struct prom *p, bool openmetrics);
void prom_free(struct prom *p);

/*
 * Start a family: name as the samples carry it without _total (counters
 * get the suffix), help one line. Every sample of a family follows its
 * start, before the next family.
 */
void prom_family(struct prom *p, const char *name, enum prom_type type, const char *help);

/* One sample of the current family, with n labels (values escaped). */
void prom_u64(struct prom *p, const struct prom_label *l, size_t n, uint64_t v);
void prom_double(struct prom *p, const struct prom_label *l, size_t n, double v);

/* The end of the exposition: "# EOF" in OpenMetrics. */
void prom_end(struct prom *p);

/* The Content-Type of what p holds. */
const char *prom_content_type(const struct prom *p);

#endif
