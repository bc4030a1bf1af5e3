/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECTL_PROBE_FLOOR_H
#define _ROCECTL_PROBE_FLOOR_H

/*
 * The benchmarks also build a floor (ROCECTL_PROBE_FLOOR=y): every probe
 * registered as usual with a handler that does nothing (set where the
 * probes are registered), to tell what the kernel's probe mechanism costs
 * from what rocectl's handlers add. Never for production.
 */
#ifdef ROCECTL_PROBE_FLOOR
#define ROCECTL_HANDLE_PROBES	false
#else
#define ROCECTL_HANDLE_PROBES	true
#endif

#endif /* _ROCECTL_PROBE_FLOOR_H */
