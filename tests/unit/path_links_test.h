/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ROCECTL_PATH_LINKS_TEST_H
#define ROCECTL_PATH_LINKS_TEST_H

/* qp path's localization (user/qp/path_links.c), each case reported through report. */
void path_links_tests(void (*report)(const char *name, int ok, const char *got, const char *want));

#endif
