/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rocectl.conf, the policy file: where it is and how a line splits into
 * words. "rocectl apply" runs its configuring lines; "rocectl check"
 * reads its "check" lines, the intent it audits against.
 */
#ifndef ROCECTL_CONF_H
#define ROCECTL_CONF_H

#define POLICY_FILE	"/etc/rocectl/rocectl.conf"
#define CONF_MAX_WORDS	64

/* Splits line in place at blanks, up to '#': the number of words, or -1 if more than CONF_MAX_WORDS. */
int conf_split_words(char *line, char **words);

#endif
