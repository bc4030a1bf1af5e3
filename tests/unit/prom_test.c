// SPDX-License-Identifier: GPL-2.0
/*
 * The exposition writer against the formats' rules: counters' _total
 * where each format puts it, label values and HELP escaped, "# EOF" only
 * in OpenMetrics. (promtool checks the whole output in the guest.)
 */
#include <stdio.h>
#include <string.h>

#include "exporter/prom.h"
#include "prom_test.h"

static void eq(void (*report)(const char *, int, const char *, const char *),
	       const char *name, const struct prom *p, const char *want)
{
	const char *got = p->buf ? p->buf : "";

	report(name, !p->failed && p->len == strlen(want) && !strcmp(got, want), got, want);
}

void prom_tests(void (*report)(const char *, int, const char *, const char *))
{
	struct prom_label l[] = { { "netdev", "sim\"0\\\n" }, { "prio", "3" } };
	struct prom p;

	prom_init(&p, false);
	prom_family(&p, "rocectl_watchdog_storms", PROM_COUNTER, "Storms\\ on\nprio.");
	prom_u64(&p, l, 2, 18446744073709551615ULL);
	prom_family(&p, "rocectl_up", PROM_GAUGE, "Up.");
	prom_u64(&p, NULL, 0, 1);
	prom_double(&p, l + 1, 1, 0.25);
	prom_end(&p);
	eq(report, "prom: text format 0.0.4: counters typed with _total, values and HELP escaped", &p,
	   "# HELP rocectl_watchdog_storms_total Storms\\\\ on\\nprio.\n"
	   "# TYPE rocectl_watchdog_storms_total counter\n"
	   "rocectl_watchdog_storms_total{netdev=\"sim\\\"0\\\\\\n\",prio=\"3\"} 18446744073709551615\n"
	   "# HELP rocectl_up Up.\n"
	   "# TYPE rocectl_up gauge\n"
	   "rocectl_up 1\n"
	   "rocectl_up{prio=\"3\"} 0.25\n");
	report("prom: text content type", !strcmp(prom_content_type(&p),
	       "text/plain; version=0.0.4; charset=utf-8"), prom_content_type(&p), NULL);
	prom_free(&p);

	/*
	 * Label values that are not UTF-8 (a comm is any bytes): each run of
	 * bad bytes one U+FFFD; valid multibyte characters kept; a character
	 * cut at the end, overlong forms and surrogates are bad bytes.
	 */
	{
		static const struct {
			const char *name, *in, *want;
		} cases[] = {
			{ "invalid bytes", "bad\xff\xfename", "bad\xef\xbf\xbdname" },
			{ "a character cut at the end", "caf\xc3", "caf\xef\xbf\xbd" },
			{ "a 3-byte character cut after 2", "x\xe2\x82", "x\xef\xbf\xbd" },
			{ "valid 2, 3 and 4-byte characters kept", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
			  "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" },
			{ "overlong NUL and slash", "a\xc0\x80" "b\xe0\x80\xaf" "c",
			  "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c" },
			{ "a surrogate", "\xed\xa0\x80", "\xef\xbf\xbd" },
			{ "above U+10FFFF", "\xf4\x90\x80\x80", "\xef\xbf\xbd" },
			{ "a lone continuation byte between escapes", "\"\x80\\", "\\\"\xef\xbf\xbd\\\\" },
		};
		char name[128], want[128];
		size_t i;

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct prom_label bad = { "comm", cases[i].in };

			prom_init(&p, false);
			prom_family(&p, "rocectl_x", PROM_GAUGE, "X.");
			prom_u64(&p, &bad, 1, 1);
			snprintf(name, sizeof(name), "prom: label value not UTF-8: %s", cases[i].name);
			snprintf(want, sizeof(want), "# HELP rocectl_x X.\n# TYPE rocectl_x gauge\nrocectl_x{comm=\"%s\"} 1\n",
				 cases[i].want);
			eq(report, name, &p, want);
			prom_free(&p);
		}
	}

	prom_init(&p, true);
	prom_family(&p, "rocectl_watchdog_storms", PROM_COUNTER, "Storms.");
	prom_u64(&p, l + 1, 1, 7);
	prom_end(&p);
	eq(report, "prom: OpenMetrics: the family typed without _total, samples with it, # EOF", &p,
	   "# HELP rocectl_watchdog_storms Storms.\n"
	   "# TYPE rocectl_watchdog_storms counter\n"
	   "rocectl_watchdog_storms_total{prio=\"3\"} 7\n"
	   "# EOF\n");
	prom_free(&p);
}
