// SPDX-License-Identifier: GPL-2.0
/* rocectl.conf: the word splitting apply and check share. */
#include <string.h>

#include "conf.h"

int conf_split_words(char *line, char **words)
{
	char *save, *w;
	int n = 0;

	line[strcspn(line, "#\r\n")] = '\0';
	for (w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n == CONF_MAX_WORDS)
			return -1;
		words[n++] = w;
	}
	return n;
}
