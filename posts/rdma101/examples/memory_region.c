/*
 * memory_region.c - RDMA 101, lesson 2.1.
 *
 * Allocates a protection domain, registers a buffer in it and prints what
 * the device hands back: the address, the length, the local key and the
 * remote key. Then it tries two things the rules forbid, and shows that
 * each is refused: remote write without local write, and deallocating a PD
 * that still holds a region. Finally it releases everything in the reverse
 * order of creation.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 memory_region.c course.c -o memory_region -libverbs
 * Run:   ./memory_region [-d device]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"

#define BUF_SIZE (64 * 1024)

static const char *fork_status(enum ibv_fork_status s)
{
	switch (s) {
	case IBV_FORK_UNNEEDED: return "not needed: the kernel copies DMA pages on fork";
	case IBV_FORK_ENABLED:  return "enabled by ibv_fork_init()";
	case IBV_FORK_DISABLED: return "off: do not fork while memory is registered";
	}
	return "unknown";
}

int main(int argc, char *argv[])
{
	struct options o;

	parse_options(argc, argv, &o);
	struct ibv_context *ctx = open_device(o.device);
	printf("opened device %s\n", device_name(ctx));

	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	printf("allocated a protection domain\n");

	char *buf = alloc_buffer(BUF_SIZE);
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, BUF_SIZE, access);
	if (!mr) {
		if (errno == ENOMEM)
			fprintf(stderr, "hint: check the locked-memory limit (ulimit -l)\n");
		die("ibv_reg_mr");
	}
	/* The four values a peer needs to reach this buffer, and the one we keep. */
	printf("registered %zu bytes at 0x%" PRIx64 ": lkey 0x%08" PRIx32
	       ", rkey 0x%08" PRIx32 "\n",
	       mr->length, (uint64_t)(uintptr_t)mr->addr, mr->lkey, mr->rkey);

	/* The same pages may be registered again, but not with remote write and
	 * no local write: this request must fail. */
	struct ibv_mr *bad = ibv_reg_mr(pd, buf, BUF_SIZE, IBV_ACCESS_REMOTE_WRITE);
	if (bad) {
		fprintf(stderr, "REMOTE_WRITE without LOCAL_WRITE was accepted\n");
		return 1;
	}
	printf("REMOTE_WRITE without LOCAL_WRITE: refused (%s)\n", strerror(errno));

	/* A parent cannot go while a child needs it: this must fail too. */
	int rc = ibv_dealloc_pd(pd);
	if (rc == 0) {
		fprintf(stderr, "ibv_dealloc_pd succeeded with a region still in the PD\n");
		return 1;
	}
	printf("ibv_dealloc_pd with a region in it: refused (%s)\n", strerror(rc));

	printf("fork support: %s\n", fork_status(ibv_is_fork_initialized()));

	/* Release in reverse order: region, memory, PD, device. */
	if ((rc = ibv_dereg_mr(mr)))
		die_rc("ibv_dereg_mr", rc);
	free(buf); /* only now: the device can no longer reach it */
	if ((rc = ibv_dealloc_pd(pd)))
		die_rc("ibv_dealloc_pd", rc);
	if (ibv_close_device(ctx))
		die("ibv_close_device");
	printf("released the region, the buffer, the PD and the device\n");
	return 0;
}
