// SPDX-License-Identifier: GPL-2.0
/*
 * Loading the libraries of rocectl exporter (and its web-config file) and
 * of monitor's journal output when those commands run (optional_libs.h
 * says why).
 */
#include <dlfcn.h>
#include <stddef.h>

#include "attrs.h"
#include "errors.h"
#include "optional_libs.h"

struct mhd_lib mhd;
struct journal_lib journal_lib;
struct yaml_lib yaml_lib;

struct sym {
	const char *name;
	size_t offset;		/* of the pointer in the library's struct */
};

/* The sonames the headers were written for: a new major is a new ABI. */
#define MHD_SONAME	"libmicrohttpd.so.12"
#define SYSTEMD_SONAME	"libsystemd.so.0"
#define YAML_SONAME	"libyaml-0.so.2"

#define MHD_SYM(f)	{ "MHD_" #f, offsetof(struct mhd_lib, f) }
static const struct sym mhd_syms[] = {
	MHD_SYM(start_daemon), MHD_SYM(stop_daemon), MHD_SYM(create_response_from_buffer),
	MHD_SYM(add_response_header), MHD_SYM(queue_response), MHD_SYM(destroy_response),
	MHD_SYM(lookup_connection_value), MHD_SYM(is_feature_supported),
	MHD_SYM(basic_auth_get_username_password), MHD_SYM(queue_basic_auth_fail_response),
	MHD_SYM(free),
};

#define YAML_SYM(f)	{ "yaml_" #f, offsetof(struct yaml_lib, f) }
static const struct sym yaml_syms[] = {
	YAML_SYM(parser_initialize), YAML_SYM(parser_set_input_file), YAML_SYM(parser_parse),
	YAML_SYM(parser_delete), YAML_SYM(event_delete),
};

static const struct sym journal_syms[] = {
	{ "sd_journal_sendv", offsetof(struct journal_lib, sendv) },
};

static int load(const char *soname, const char *what, const char *package,
		const struct sym *syms, size_t n, void *table, int *state)
{
	const char *err;
	void *h;
	size_t i;

	if (*state)
		return *state > 0 ? 0 : -1;
	*state = -1;
	h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		pr_err("Error: %s needs %s, which cannot be loaded (%s): install %s.\n",
		       what, soname, dlerror(), package);
		return -1;
	}
	for (i = 0; i < n; i++) {
		void *p;

		dlerror();
		p = dlsym(h, syms[i].name);
		err = dlerror();
		if (err || !p) {
			pr_err("Error: %s needs %s from %s, which lacks it (%s).\n",
			       what, syms[i].name, soname, err ? err : "null");
			dlclose(h);
			return -1;
		}
		*(void **)((char *)table + syms[i].offset) = p;
	}
	/* Kept open for the rest of the run. */
	*state = 1;
	return 0;
}

int mhd_load(void)
{
	static int state;

	return load(MHD_SONAME, "rocectl exporter", "libmicrohttpd (Debian: libmicrohttpd12)",
		    mhd_syms, ARRAY_SIZE(mhd_syms), &mhd, &state);
}

int journal_lib_load(void)
{
	static int state;

	return load(SYSTEMD_SONAME, "rocectl monitor journal", "libsystemd (Debian: libsystemd0)",
		    journal_syms, ARRAY_SIZE(journal_syms), &journal_lib, &state);
}

int yaml_lib_load(void)
{
	static int state;

	return load(YAML_SONAME, "rocectl exporter web-config", "libyaml (Debian: libyaml-0-2)",
		    yaml_syms, ARRAY_SIZE(yaml_syms), &yaml_lib, &state);
}
