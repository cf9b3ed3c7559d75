/*
 * reg_cost.c - RDMA 101, lesson 3.3.
 *
 * What registering memory costs and what it leaves behind. For buffers
 * from 4 KiB to 64 MiB it times ibv_reg_mr and ibv_dereg_mr (the fastest of
 * REPEAT tries, since one try on a busy machine can be far off) and reads
 * the pinned-memory count (VmPin) from /proc/self/status while the region
 * exists; once more for a buffer whose pages were never touched. Then it
 * lowers its own locked-memory limit (RLIMIT_MEMLOCK) below the size of a
 * buffer and tries to register it, and finally asks the device whether it
 * supports on-demand paging.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 reg_cost.c course.c -o reg_cost -libverbs
 * Run:   ./reg_cost [device]
 *        setpriv --bounding-set=-ipc_lock ./reg_cost [device]   (without CAP_IPC_LOCK)
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, getline */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "course.h"

#define KIB 1024ul
#define MIB (1024ul * 1024)
#define CAP_IPC_LOCK_BIT 14 /* from <linux/capability.h> */
#define REPEAT 5

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* A field of /proc/self/status, such as "VmPin:" or "CapEff:", as text. */
static char *status_field(const char *name, char *out, size_t size)
{
	FILE *f = fopen("/proc/self/status", "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		die("/proc/self/status");
	snprintf(out, size, "(none)");
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, name, strlen(name)) == 0) {
			char *v = line + strlen(name);

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(out, size, "%s", v);
			break;
		}
	}
	free(line);
	fclose(f);
	return out;
}

static int has_cap_ipc_lock(void)
{
	char eff[32];

	return (strtoull(status_field("CapEff:", eff, sizeof(eff)), NULL, 16) >>
		CAP_IPC_LOCK_BIT) & 1;
}

static const char *human(size_t bytes, char out[24])
{
	if (bytes >= MIB)
		snprintf(out, 24, "%zu MiB", bytes / MIB);
	else
		snprintf(out, 24, "%zu KiB", bytes / KIB);
	return out;
}

/* Register len bytes at buf and deregister them, tries times; report the fastest and VmPin. */
static void measure(struct ibv_pd *pd, void *buf, size_t len, const char *what, int tries)
{
	char size[24], pin[32];
	double reg = 1e18, dereg = 1e18;

	for (int i = 0; i < tries; i++) {
		double t0 = now_us();
		struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
		double t1 = now_us();

		if (!mr) {
			printf("%-8s %-9s register failed: %s\n", human(len, size), what,
			       strerror(errno));
			return;
		}
		status_field("VmPin:", pin, sizeof(pin)); /* not timed */
		double t2 = now_us();
		int rc = ibv_dereg_mr(mr);
		double t3 = now_us();
		if (rc)
			die_rc("ibv_dereg_mr", rc);
		reg = t1 - t0 < reg ? t1 - t0 : reg;
		dereg = t3 - t2 < dereg ? t3 - t2 : dereg;
	}
	printf("%-8s %-9s register %8.0f us, deregister %6.0f us, VmPin while registered %s\n",
	       human(len, size), what, reg, dereg, pin);
}

int main(int argc, char *argv[])
{
	struct ibv_context *ctx = open_device(argc > 1 ? argv[1] : NULL);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	char pin[32], size[24];

	if (!pd)
		die("ibv_alloc_pd");
	struct rlimit rl;
	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		die("getrlimit");
	printf("device %s; RLIMIT_MEMLOCK %s; CAP_IPC_LOCK %s; VmPin %s\n", device_name(ctx),
	       rl.rlim_cur == RLIM_INFINITY ? "unlimited" : human((size_t)rl.rlim_cur, size),
	       has_cap_ipc_lock() ? "held" : "not held", status_field("VmPin:", pin, sizeof(pin)));

	/* 1. Cost against size, for memory that is already in place. */
	for (size_t len = 4 * KIB; len <= 64 * MIB; len *= 4) {
		char *buf = alloc_buffer(len); /* alloc_buffer writes every byte */

		measure(pd, buf, len, "touched", REPEAT);
		free(buf);
	}
	/* 2. The same size, but no page has been touched since malloc: one try only,
	 * since the first registration touches them all. */
	char *fresh = malloc(64 * MIB);
	if (!fresh)
		die("malloc");
	measure(pd, fresh, 64 * MIB, "untouched", 1);
	free(fresh);

	/* 3. The locked-memory limit: lower it below the buffer's size. */
	size_t len = 4 * MIB;
	rl.rlim_cur = rl.rlim_max < MIB ? rl.rlim_max : MIB; /* lowering needs no privilege */
	if (setrlimit(RLIMIT_MEMLOCK, &rl))
		die("setrlimit");
	char *buf = alloc_buffer(len);
	printf("RLIMIT_MEMLOCK lowered to %s; registering 4 MiB: ", human((size_t)rl.rlim_cur, size));
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (mr) {
		printf("succeeded (the limit does not apply to this process)\n");
		int rc = ibv_dereg_mr(mr);
		if (rc)
			die_rc("ibv_dereg_mr", rc);
	} else {
		printf("failed: %s\n", strerror(errno));
	}
	free(buf);

	/* 4. On-demand paging: registration without pinning, if the device can. */
	struct ibv_device_attr_ex attr;
	int rc = ibv_query_device_ex(ctx, NULL, &attr);
	if (rc)
		die_rc("ibv_query_device_ex", rc);
	printf("on-demand paging (IBV_ODP_SUPPORT): %s\n",
	       attr.odp_caps.general_caps & IBV_ODP_SUPPORT ? "supported" : "not supported");

	release_all(NULL, NULL, NULL, pd, ctx);
	return 0;
}
