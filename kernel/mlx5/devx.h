/* SPDX-License-Identifier: GPL-2.0 */
/* DevX QPs seen at mlx5_core's command entry (devx.c). */
#ifndef _ROCECTL_MLX5_DEVX_H
#define _ROCECTL_MLX5_DEVX_H

int rm5_devx_init(void);
void rm5_devx_exit(void);

#endif /* _ROCECTL_MLX5_DEVX_H */
