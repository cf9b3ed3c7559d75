/*
 * memory_region.c - RDMA 101, lessons 2.1 and 2.2.
 *
 * Opens the first RDMA device, allocates a protection domain, registers a
 * buffer and prints what the device handed back: the address, the length,
 * the local key and the remote key. It then shows the one access rule that is
 * always enforced (remote write needs local write) and releases everything in
 * the reverse order of creation.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 -o memory_region memory_region.c -libverbs
 * Run:   ./memory_region        (no arguments)
 */
#define _POSIX_C_SOURCE 200809L /* for sysconf() */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define BUF_PAGES 16 /* register sixteen pages */

/* Everything we create, so that one function can release it all. */
struct resources {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	void *buf;
	size_t buf_len;
	struct ibv_mr *mr;
};

/*
 * Open the first device in the list. Returns NULL (after printing why) when
 * there is no usable device, which is the normal case on a machine without
 * an RDMA NIC or Soft-RoCE.
 */
static struct ibv_context *open_first_device(void)
{
	int num = 0;
	struct ibv_device **list = ibv_get_device_list(&num);

	if (!list) {
		fprintf(stderr, "no RDMA device found (ibv_get_device_list: %s)\n",
			strerror(errno));
		return NULL;
	}
	if (num == 0) {
		fprintf(stderr, "no RDMA device found (the device list is empty)\n");
		ibv_free_device_list(list);
		return NULL;
	}

	/* The name may be NULL by the man page's contract: never print a NULL. */
	const char *name = ibv_get_device_name(list[0]);
	if (!name)
		name = "(unnamed)";

	struct ibv_context *ctx = ibv_open_device(list[0]);
	if (!ctx)
		fprintf(stderr, "ibv_open_device(%s) failed: %s\n", name,
			strerror(errno));
	else
		printf("opened device   %s\n", name);

	/* An opened device stays valid after the list is freed. */
	ibv_free_device_list(list);
	return ctx;
}

/* Spell out an access mask so the output is readable. */
static void print_access(int access)
{
	static const struct {
		int flag;
		const char *name;
	} names[] = {
		{ IBV_ACCESS_LOCAL_WRITE, "LOCAL_WRITE" },
		{ IBV_ACCESS_REMOTE_WRITE, "REMOTE_WRITE" },
		{ IBV_ACCESS_REMOTE_READ, "REMOTE_READ" },
		{ IBV_ACCESS_REMOTE_ATOMIC, "REMOTE_ATOMIC" },
	};
	const char *sep = "";

	printf("access flags    ");
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (access & names[i].flag) {
			printf("%s%s", sep, names[i].name);
			sep = " | ";
		}
	}
	printf("%s\n", *sep ? "" : "(none: local read only)");
}

/*
 * Allocate a page-aligned buffer. Registration works on whole pages anyway;
 * aligning keeps unrelated heap data out of the pages we pin.
 */
static void *alloc_pages(size_t *len_out)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		page = 4096;

	size_t len = (size_t)page * BUF_PAGES;
	void *buf = aligned_alloc((size_t)page, len);
	if (!buf) {
		fprintf(stderr, "aligned_alloc(%zu) failed\n", len);
		return NULL;
	}
	memset(buf, 0, len);
	*len_out = len;
	return buf;
}

/*
 * Show that the access rule is enforced: asking for REMOTE_WRITE without
 * LOCAL_WRITE must fail. The same memory may be registered more than once,
 * so this does not disturb the region we already hold.
 */
static void try_forbidden_flags(struct resources *r)
{
	struct ibv_mr *bad = ibv_reg_mr(r->pd, r->buf, r->buf_len,
					IBV_ACCESS_REMOTE_WRITE);
	if (!bad) {
		printf("REMOTE_WRITE without LOCAL_WRITE: rejected as expected (%s)\n",
		       strerror(errno));
		return;
	}
	/* Not expected on any conforming device, but clean up if it happens. */
	printf("REMOTE_WRITE without LOCAL_WRITE: unexpectedly accepted\n");
	int rc = ibv_dereg_mr(bad);
	if (rc)
		fprintf(stderr, "ibv_dereg_mr failed: %s\n", strerror(rc));
}

/* Release in the reverse order of creation: MR, buffer, PD, context. */
static int release(struct resources *r)
{
	int failed = 0;
	int rc;

	if (r->mr) {
		rc = ibv_dereg_mr(r->mr); /* returns an errno value */
		if (rc) {
			fprintf(stderr, "ibv_dereg_mr failed: %s\n", strerror(rc));
			failed = 1;
		}
	}
	/* Free the memory only after the device can no longer reach it. */
	free(r->buf);
	if (r->pd) {
		rc = ibv_dealloc_pd(r->pd); /* returns an errno value */
		if (rc) {
			fprintf(stderr, "ibv_dealloc_pd failed: %s\n", strerror(rc));
			failed = 1;
		}
	}
	if (r->ctx && ibv_close_device(r->ctx)) { /* returns -1 */
		fprintf(stderr, "ibv_close_device failed: %s\n", strerror(errno));
		failed = 1;
	}
	return failed;
}

int main(void)
{
	struct resources r = { 0 };
	int status = 1;

	r.ctx = open_first_device();
	if (!r.ctx)
		return 1;

	r.pd = ibv_alloc_pd(r.ctx);
	if (!r.pd) {
		fprintf(stderr, "ibv_alloc_pd failed: %s\n", strerror(errno));
		goto out;
	}

	r.buf = alloc_pages(&r.buf_len);
	if (!r.buf)
		goto out;
	snprintf(r.buf, r.buf_len, "hello from memory_region");

	/*
	 * LOCAL_WRITE lets the device write here for our own receives and READ
	 * results; REMOTE_WRITE and REMOTE_READ let a peer that knows the rkey
	 * write and read this memory directly.
	 */
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		     IBV_ACCESS_REMOTE_READ;
	r.mr = ibv_reg_mr(r.pd, r.buf, r.buf_len, access);
	if (!r.mr) {
		int err = errno; /* save it: fprintf() may change errno */

		fprintf(stderr, "ibv_reg_mr failed: %s\n", strerror(err));
		if (err == ENOMEM)
			fprintf(stderr, "hint: check the locked-memory limit (ulimit -l)\n");
		goto out;
	}

	/* These four values are what a peer needs to target this buffer. */
	printf("address         %p (0x%" PRIx64 " as a 64-bit wire value)\n",
	       r.mr->addr, (uint64_t)(uintptr_t)r.mr->addr);
	printf("length          %zu bytes\n", r.mr->length);
	printf("lkey            0x%08" PRIx32 "  (goes in our own ibv_sge)\n", r.mr->lkey);
	printf("rkey            0x%08" PRIx32 "  (give this to a peer)\n", r.mr->rkey);
	print_access(access);

	try_forbidden_flags(&r);
	status = 0;

out:
	if (release(&r))
		status = 1;
	if (status == 0)
		printf("released MR, buffer, PD and context\n");
	return status;
}
