/* SPDX-License-Identifier: GPL-2.0 */
/* One version for the module, the tool and the DKMS package. */
#ifndef _ROCECTL_VERSION_H
#define _ROCECTL_VERSION_H

#define ROCECTL_VERSION "0.1.0"

#endif
