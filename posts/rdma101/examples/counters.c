/*
 * counters.c - RDMA 101, lesson 4.6.
 *
 * Runs a command and prints how the RDMA port's counters changed while it
 * ran: a snapshot of every file in the port's hw_counters and counters
 * folders in sysfs before, the command, a snapshot after, and the counters
 * that moved, with their difference. Counters only ever grow, and other
 * programs move them too; a difference over a known interval is what
 * diagnoses something, not a total.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 counters.c course.c -o counters -libverbs
 * Run:   ./counters [-d device] [-i port] -- command [args...]
 *        ./counters [-d device] [-i port] -s seconds
 */
#define _POSIX_C_SOURCE 200809L /* getopt, nanosleep */

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define MAX_COUNTERS 128

struct counter {
	char name[64]; /* "hw_counters/sent_pkts" */
	uint64_t value;
};

struct snapshot {
	int n;
	struct counter c[MAX_COUNTERS];
};

/* Read every counter file of one folder into the snapshot. */
static void read_folder(const char *port_dir, const char *folder, struct snapshot *s)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", port_dir, folder);
	DIR *d = opendir(path);

	if (!d)
		return; /* a device may have either folder, or both */
	for (struct dirent *e; (e = readdir(d)) && s->n < MAX_COUNTERS;) {
		if (e->d_name[0] == '.' || strlen(e->d_name) > 40)
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", port_dir, folder, e->d_name);
		FILE *f = fopen(path, "r");
		uint64_t v;

		if (!f)
			continue;
		if (fscanf(f, "%" SCNu64, &v) == 1) {
			snprintf(s->c[s->n].name, sizeof(s->c[0].name), "%s/%s", folder, e->d_name);
			s->c[s->n++].value = v;
		}
		fclose(f);
	}
	closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct counter *)a)->name, ((const struct counter *)b)->name);
}

/* Every counter of the port, sorted by name: readdir() promises no order. */
static void take(const char *port_dir, struct snapshot *s)
{
	s->n = 0;
	read_folder(port_dir, "hw_counters", s);
	read_folder(port_dir, "counters", s);
	qsort(s->c, (size_t)s->n, sizeof(s->c[0]), by_name);
}

int main(int argc, char *argv[])
{
	const char *dev = NULL;
	int port = COURSE_IB_PORT, seconds = -1, opt;

	while ((opt = getopt(argc, argv, "+d:i:s:")) != -1) {
		switch (opt) {
		case 'd': dev = optarg; break;
		case 'i': port = (int)number("-i", optarg, 1, UINT8_MAX); break;
		case 's': seconds = (int)number("-s", optarg, 0, 3600); break;
		default:
			fprintf(stderr, "usage: %s [-d device] [-i port] (-s seconds | -- command [args...])\n", argv[0]);
			return 2;
		}
	}
	/* The device is opened only to find it, by the same rules as every course program. */
	struct ibv_context *ctx = open_device(dev);
	char port_dir[256];

	snprintf(port_dir, sizeof(port_dir), "/sys/class/infiniband/%s/ports/%d", device_name(ctx), port);
	struct snapshot *before = calloc(2, sizeof(*before)), *after = before + 1;

	if (!before)
		die("calloc");
	take(port_dir, before);
	if (before->n == 0) {
		fprintf(stderr, "%s has no counters\n", port_dir);
		return 1;
	}
	int status = 0;

	if (optind < argc) {
		fflush(stdout);
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			execvp(argv[optind], argv + optind);
			die(argv[optind]);
		}
		int ws;

		if (waitpid(pid, &ws, 0) < 0)
			die("waitpid");
		status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
		printf("--- %s exited with status %d\n", argv[optind], status);
	} else if (seconds >= 0) {
		nanosleep(&(struct timespec){ .tv_sec = seconds }, NULL);
	} else {
		fprintf(stderr, "give a command after --, or -s seconds\n");
		return 2;
	}
	take(port_dir, after);
	printf("counters of %s port %d that changed:\n", device_name(ctx), port);
	int changed = 0;

	for (int i = 0; i < after->n; i++) {
		const struct counter *a = &after->c[i];
		const struct counter *b = bsearch(a, before->c, (size_t)before->n, sizeof(*a), by_name);

		if (b && a->value != b->value) {
			printf("  %-36s +%" PRIu64 "\n", a->name, a->value - b->value);
			changed++;
		}
	}
	if (!changed)
		printf("  (none)\n");
	free(before);
	release_all(NULL, NULL, NULL, NULL, ctx);
	return status;
}
