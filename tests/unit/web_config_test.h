/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_WEB_CONFIG_TEST_H
#define ROCECTL_WEB_CONFIG_TEST_H

/* The exporter's web-config file, good and bad, each case reported through report. */
void web_config_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
