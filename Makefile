# SPDX-License-Identifier: GPL-2.0
#
# rocectl: build the module (kbuild, against KVER's headers) and the tool.
#
#   make                  module and tool
#   make module           rocectl.ko against /lib/modules/$(KVER)/build
#   make user             the rocectl tool
#   make style            checkpatch, sparse and -Werror gates
#   make check            the whole test suite (module, tool, QEMU guest)
#   make demo             boot a guest and show rocectl on soft-RoCE
#
# KVER defaults to the running kernel; set it to build for another one.

KVER ?= $(shell uname -r)
KERNELDIR ?= /lib/modules/$(KVER)/build
PWD := $(CURDIR)

all: module user

module:
	@test -d $(KERNELDIR) || { echo "No kernel build tree at $(KERNELDIR):" \
		"install linux-headers-$(KVER) or set KVER=/KERNELDIR=." >&2; exit 1; }
	$(MAKE) -C $(KERNELDIR) M=$(PWD) modules

user:
	$(MAKE) -C user

style:
	tests/style.sh

check:
	tests/run

demo:
	tests/demo.sh

clean:
	@if [ -d $(KERNELDIR) ]; then $(MAKE) -C $(KERNELDIR) M=$(PWD) clean; fi
	$(MAKE) -C user clean
	rm -rf tests/unit/build

.PHONY: all module user style check demo clean
