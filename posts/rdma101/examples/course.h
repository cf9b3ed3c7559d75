/*
 * course.h - RDMA 101: the small helpers the course's programs share.
 *
 * Each helper does one thing a lesson has already taught by hand, so that
 * later programs can show only what is new. Lesson 2.6 reads course.c in
 * full. Every helper checks what it calls; on failure it prints what went
 * wrong to stderr and exits with status 1, so callers need no error path.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 prog.c course.c -o prog -libverbs
 */
#ifndef RDMA101_COURSE_H
#define RDMA101_COURSE_H

#include <limits.h> /* INT_MAX and the like, as bounds for number() */
#include <stdint.h>

#include <infiniband/verbs.h>

#define COURSE_IB_PORT 1        /* ports are numbered from 1 */
#define COURSE_TCP_PORT 18515   /* default port of the TCP side channel */
#define COURSE_READ_DEPTH 16    /* READs/atomics a QP serves at once, at most */

/* Print "what: <strerror(errno)>" and exit(1): for calls that set errno. */
_Noreturn void die(const char *what);
/* Print "what: <strerror(rc)>" and exit(1): for calls that return an errno value. */
_Noreturn void die_rc(const char *what, int rc);

/*
 * An option's argument as a whole decimal number from lo to hi. Anything else
 * ("", "x", "12k", a number out of range) prints "what: 'text' is not a whole
 * number from lo to hi" and exits with status 1, where atoi() would read "x"
 * as 0 and carry on. what names the option, such as "-n".
 */
long number(const char *what, const char *text, long lo, long hi);

/* The command line every course program accepts (a HOST makes a two-process program the client). */
struct options {
	const char *device; /* -d NAME: the RDMA device (default: the first one) */
	int gid_index;      /* -g N: the GID index (default -1: choose_gid() decides) */
	int tcp_port;       /* -p N: the TCP side channel's port (default COURSE_TCP_PORT) */
	const char *host;   /* HOST: the server to connect to; NULL means "be the server" */
};
/* Parse [-d device] [-g gid_index] [-p tcp_port] [HOST]; print usage and exit(1) on anything else. */
void parse_options(int argc, char *argv[], struct options *o);

/*
 * How most programs start: parse the command line, open the device it names,
 * choose the GID index (choose_gid() below) and allocate a protection domain.
 * The device context is pd->context.
 */
struct ibv_pd *open_pd_from_args(int argc, char *argv[], struct options *o, int *gid_index);

/*
 * Open the device called name, or the first device if name is NULL. With no
 * device it prints "no RDMA device found (...)" and exits with status 1.
 * It also makes stdout line-buffered, so that output stays in order with
 * stderr when both go to a pipe.
 */
struct ibv_context *open_device(const char *name);
/* The device's name for printing: never NULL. */
const char *device_name(struct ibv_context *ctx);

/*
 * Release what a program created, children before parents: the QP, the CQ,
 * the MR, the PD, then the device. Any argument may be NULL. Free the
 * registered buffer only after this returns.
 */
void release_all(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr,
	      struct ibv_pd *pd, struct ibv_context *ctx);

/* A zeroed, page-aligned buffer of len bytes (rounded up to whole pages). */
void *alloc_buffer(size_t len);

/*
 * The GID index to address peers with. requested >= 0 is checked and used
 * as given (a -g option). requested < 0 chooses as real programs do: on an
 * Ethernet (RoCE) port, the RoCE v2 entry holding an IPv4 address if there
 * is one, else another RoCE v2 entry, else the first valid one. Returns -1
 * on an InfiniBand port that needs no GRH: address the peer by LID there.
 */
int choose_gid(struct ibv_context *ctx, uint8_t port, int requested);
/* A GID as text: an IPv4-mapped GID prints as ::ffff:a.b.c.d. */
void format_gid(const union ibv_gid *gid, char out[46]);

/* Everything one side tells the other before their QPs can connect. */
struct conn_info {
	uint32_t qpn;         /* QP number (24 bits) */
	uint32_t psn;         /* first PSN this side sends (24 bits) */
	uint16_t lid;         /* port LID; 0 on RoCE */
	uint8_t mtu;          /* enum ibv_mtu: this side's active MTU */
	uint8_t rd_atomic;    /* READs/atomics this side serves at once */
	union ibv_gid gid;    /* GID at the chosen index; zero if unused */
	uint64_t addr;        /* a buffer the peer may access with RDMA, */
	uint32_t rkey;        /* the key that allows it, */
	uint32_t len;         /* and its length in bytes (all 0 if none) */
};

/* Describe our side: QP, port, GID, a random first PSN and, if mr, a buffer. */
void local_info(struct ibv_qp *qp, uint8_t port, int gid_index,
		const struct ibv_mr *mr, struct conn_info *out);
/* One line: "<label> QPN 0x... PSN 0x... LID ... GID ... MTU ... read depth ..." */
void print_info(const char *label, const struct conn_info *ci);

/* TCP side channel. The server prints a line once it listens. */
int tcp_listen_accept(int port);
int tcp_connect(const char *host, int port);
/* Send ours and receive theirs, in a fixed big-endian wire format. */
void exchange_info(int sock, const struct conn_info *mine, struct conn_info *peer);
/* Return only when the peer has reached the same point. */
void tcp_barrier(int sock);

/*
 * Everything lesson 2.6 does to connect an RC QP that is in INIT to a peer:
 * open the TCP side channel (listen if host is NULL, else connect), describe
 * our side (with mr's buffer, if any), exchange records, move to RTR and RTS,
 * and wait at a barrier. Post the receives the peer may need first. Fills
 * *mine and *peer; returns the socket, left open for later barriers.
 */
int connect_qp(struct ibv_qp *qp, uint8_t port, int gid_index, const struct ibv_mr *mr,
	       const char *host, int tcp_port, struct conn_info *mine, struct conn_info *peer);

/* The three transitions of an RC QP (lesson 2.4). */
/*
 * The local ACK timeout qp_to_rts() sets: at least 4.096 us * 2^timeout before
 * each retransmission. The default, 17 (about 0.54 s; seven tries take about
 * 3.8 s), outlasts the stalls of a busy machine, such as an emulated VM
 * descheduled for a while. A program that shows the retry timer at work sets
 * a shorter one before it connects.
 */
extern uint8_t course_ack_timeout;
void qp_to_init(struct ibv_qp *qp, uint8_t port, int access);
void qp_to_rtr(struct ibv_qp *qp, uint8_t port, int gid_index,
	       const struct conn_info *mine, const struct conn_info *peer);
void qp_to_rts(struct ibv_qp *qp, const struct conn_info *mine,
	       const struct conn_info *peer);

/* Post a list of send requests; if one is refused, name its wr_id and exit. */
void post_send_or_die(struct ibv_qp *qp, struct ibv_send_wr *wr);

/* "IBV_WC_REM_ACCESS_ERR" and so on: the enum's own name for a status. */
const char *wc_status_name(enum ibv_wc_status status);
/*
 * Poll until one completion arrives and store it in *wc. Returns 0 if it
 * succeeded; on an error status prints "wr_id N: IBV_WC_... (text)" to
 * stderr and returns -1. Exits if polling fails or nothing arrives within
 * COURSE_WAIT_SECONDS.
 */
#define COURSE_WAIT_SECONDS 20
int wait_completion(struct ibv_cq *cq, struct ibv_wc *wc);

#endif
