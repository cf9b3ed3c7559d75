/*
 * tensor_ranges.c - RDMA 101, lessons 5.2, 5.4 and 6.2: from a tensor's layout
 * to byte ranges, and from the ranges to one batch of RDMA WRITEs.
 *
 * Each side holds a paged KV cache in host memory: LAYERS tensors of
 * 2-byte elements, one per layer, laid out one after another in a single
 * registered pool. A layer's shape is [blocks][2][tokens][heads][head_dim]
 * ("blocks first", the default) or [2][blocks][tokens][heads][head_dim]
 * ("K/V first", -k); index 0 and 1 of the dimension of size 2 hold K and V.
 *
 * The client holds one request's KV in the blocks given with -b. It asks the
 * server for that many blocks; the server reserves the first free ones (-u
 * marks blocks as used by other requests) and answers with their numbers.
 * The client turns every (layer, block, K or V) piece into a source and a
 * target byte range, merges ranges that are adjacent on both sides, posts
 * all of them as one list of unsignalled WRITEs followed by a signalled
 * zero-byte WRITE with immediate, and the server checks every byte.
 *
 * Build: gcc -std=c11 -Wall -Wextra -Werror -O2 tensor_ranges.c course.c -o tensor_ranges -libverbs
 * Run:   ./tensor_ranges [-k] [-L LAYERS] [-t TOKENS] [-u USED] [-d DEV] [-g GID] [-p PORT]        server
 *        ./tensor_ranges [-k] [-L LAYERS] [-t TOKENS] [-b BLOCKS] [-d DEV] [-g GID] [-p PORT] HOST  client
 *        (both sides must be given the same -k, -L and -t)
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "course.h"

#define POOL_BLOCKS 16  /* blocks per layer in each side's pool */
#define MAX_LAYERS 8
#define MAX_TOKENS 256  /* tokens per block */
#define HEADS 1
#define HEAD_DIM 64
#define ELEM 2          /* bytes per element, as for bf16 */
#define NDIM 5
#define MAX_RANGES (MAX_LAYERS * POOL_BLOCKS * 2)
#define FREE_BYTE 0xee  /* what the server's unreserved blocks hold */
#define CTL_WORDS (1 + POOL_BLOCKS) /* a control message: a count, then block numbers */

/* A strided view of part of the pool: what a framework calls a tensor. */
struct tensor {
	size_t offset;       /* bytes from the start of the pool to element [0]...[0] */
	size_t shape[NDIM];
	size_t stride[NDIM]; /* in elements, as frameworks count them */
};

/* One contiguous piece to copy: offsets are relative to each side's pool. */
struct range {
	uint64_t src, dst;
	uint32_t len;
};

struct config {
	int kv_first;        /* -k: the [2][blocks]... layout */
	size_t layers, tokens;
};

static struct tensor layer_tensor(const struct config *c, size_t layer)
{
	size_t inner = c->tokens * HEADS * HEAD_DIM; /* elements of one K or V piece */
	struct tensor t = {
		.offset = layer * POOL_BLOCKS * 2 * inner * ELEM,
		.shape = { POOL_BLOCKS, 2, c->tokens, HEADS, HEAD_DIM },
		.stride = { 2 * inner, inner, HEADS * HEAD_DIM, HEAD_DIM, 1 },
	};
	if (c->kv_first) { /* swap the first two dimensions */
		t.shape[0] = 2, t.shape[1] = POOL_BLOCKS;
		t.stride[0] = POOL_BLOCKS * inner, t.stride[1] = inner;
	}
	return t;
}

/*
 * The bytes of the sub-tensor t[idx[0]]...[idx[fixed-1]]. It is one range
 * only if the dimensions left over are contiguous: each stride equals the
 * number of elements in the dimensions inside it.
 */
static int sub_range(const struct tensor *t, const size_t *idx, int fixed,
		     uint64_t *off, uint32_t *len)
{
	size_t elems = 1, first = 0;

	for (int d = NDIM - 1; d >= fixed; d--) {
		if (t->stride[d] != elems)
			return -1; /* a gap inside: several ranges, not one */
		elems *= t->shape[d];
	}
	for (int d = 0; d < fixed; d++)
		first += idx[d] * t->stride[d];
	*off = t->offset + first * ELEM;
	*len = (uint32_t)(elems * ELEM);
	return 0;
}

/* The range of block `block`, half `kv` (0 = K, 1 = V) of one layer. */
static void piece(const struct config *c, const struct tensor *t, size_t block, size_t kv,
		  uint64_t *off, uint32_t *len)
{
	size_t idx[2] = { block, kv };

	if (c->kv_first)
		idx[0] = kv, idx[1] = block;
	if (sub_range(t, idx, 2, off, len)) {
		fprintf(stderr, "a K or V piece of a block is not contiguous\n");
		exit(1);
	}
}

static int by_src(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->src < y->src ? -1 : x->src > y->src;
}

/*
 * Every piece of the request as a (source, target) pair of ranges, sorted by
 * source offset, then merged wherever two neighbours touch on BOTH sides.
 * Returns the number of ranges after merging; *before gets the number before.
 */
static size_t build_ranges(const struct config *c, const uint32_t *src_blocks,
			   const uint32_t *dst_blocks, size_t n, struct range *r, size_t *before)
{
	size_t count = 0;

	for (size_t l = 0; l < c->layers; l++) {
		struct tensor t = layer_tensor(c, l);
		for (size_t j = 0; j < n; j++)
			for (size_t kv = 0; kv < 2; kv++) {
				uint64_t dst;
				piece(c, &t, src_blocks[j], kv, &r[count].src, &r[count].len);
				piece(c, &t, dst_blocks[j], kv, &dst, &r[count].len);
				r[count++].dst = dst;
			}
	}
	*before = count;
	qsort(r, count, sizeof(*r), by_src);
	size_t out = 0;
	for (size_t i = 0; i < count; i++) {
		struct range *last = out ? &r[out - 1] : NULL;
		if (last && last->src + last->len == r[i].src && last->dst + last->len == r[i].dst)
			last->len += r[i].len;
		else
			r[out++] = r[i];
	}
	return out;
}

/* The byte the request's j-th block holds at position i of its K or V piece. */
static uint8_t pattern(size_t layer, size_t j, size_t kv, size_t i)
{
	return (uint8_t)(i + 13 * j + 29 * layer + 101 * kv);
}

static void fill_request(const struct config *c, uint8_t *pool, const uint32_t *blocks, size_t n)
{
	for (size_t l = 0; l < c->layers; l++) {
		struct tensor t = layer_tensor(c, l);
		for (size_t j = 0; j < n; j++)
			for (size_t kv = 0; kv < 2; kv++) {
				uint64_t off;
				uint32_t len;
				piece(c, &t, blocks[j], kv, &off, &len);
				for (uint32_t i = 0; i < len; i++)
					pool[off + i] = pattern(l, j, kv, i);
			}
	}
}

/* Server: every reserved block holds the request's bytes, every other block is untouched. */
static int verify(const struct config *c, const uint8_t *pool, const uint32_t *blocks, size_t n)
{
	for (size_t l = 0; l < c->layers; l++) {
		struct tensor t = layer_tensor(c, l);
		for (size_t b = 0; b < POOL_BLOCKS; b++)
			for (size_t kv = 0; kv < 2; kv++) {
				size_t j = 0;
				while (j < n && blocks[j] != b)
					j++;
				uint64_t off;
				uint32_t len;
				piece(c, &t, b, kv, &off, &len);
				for (uint32_t i = 0; i < len; i++) {
					uint8_t want = j < n ? pattern(l, j, kv, i) : FREE_BYTE;
					if (pool[off + i] != want) {
						printf("layer %zu block %zu %s byte %" PRIu32 ": 0x%02x, expected 0x%02x\n",
						       l, b, kv ? "V" : "K", i, pool[off + i], want);
						return -1;
					}
				}
			}
	}
	return 0;
}

/*
 * "3,4,5" into blocks[]: each a block number below POOL_BLOCKS, none twice;
 * returns how many ("" is none). A bad list is reported and the program exits.
 */
static size_t parse_blocks(const char *what, const char *list, uint32_t *blocks)
{
	char copy[64], *piece = copy, *comma;
	size_t n = 0;
	unsigned seen = 0; /* one bit per block: no block twice */

	if (!*list)
		return 0;
	if (strlen(list) >= sizeof(copy)) {
		fprintf(stderr, "%s: '%s' is too long a list of blocks\n", what, list);
		exit(1);
	}
	strcpy(copy, list);
	do {
		if ((comma = strchr(piece, ',')))
			*comma = '\0';
		uint32_t b = (uint32_t)number(what, piece, 0, POOL_BLOCKS - 1);
		if (seen & 1u << b) {
			fprintf(stderr, "%s: block %" PRIu32 " is named twice\n", what, b);
			exit(1);
		}
		seen |= 1u << b;
		blocks[n++] = b;
		piece = comma + 1;
	} while (comma);
	return n;
}

static void print_blocks(const char *label, const uint32_t *blocks, size_t n)
{
	printf("%s", label);
	for (size_t j = 0; j < n; j++)
		printf("%s%" PRIu32, j ? "," : " ", blocks[j]);
	printf("\n");
}

/*
 * Control messages are arrays of big-endian uint32: a count, then block
 * numbers. The control MR has two halves, one that receives and one that
 * sends, so that a message being sent never shares bytes with a posted receive.
 */
static uint32_t *ctl_in(struct ibv_mr *ctl) { return ctl->addr; }
static uint32_t *ctl_out(struct ibv_mr *ctl) { return ctl_in(ctl) + CTL_WORDS; }

static void post_recv_or_die(struct ibv_qp *qp, struct ibv_recv_wr *wr)
{
	struct ibv_recv_wr *bad_wr = NULL;
	int rc = ibv_post_recv(qp, wr, &bad_wr);
	if (rc)
		die_rc("ibv_post_recv", rc);
}

static void post_ctl_recv(struct ibv_qp *qp, struct ibv_mr *ctl)
{
	struct ibv_sge sge = { .addr = (uintptr_t)ctl_in(ctl), .length = CTL_WORDS * 4,
			       .lkey = ctl->lkey };
	struct ibv_recv_wr wr = { .wr_id = 1, .sg_list = &sge, .num_sge = 1 };
	post_recv_or_die(qp, &wr);
}

/* A receive with no buffer: it only waits for the notice's immediate value. */
static void post_notice_recv(struct ibv_qp *qp)
{
	struct ibv_recv_wr wr = { .wr_id = 2, .num_sge = 0 };
	post_recv_or_die(qp, &wr);
}

/* Unsignalled: its send-queue slot is freed by the next signalled completion. */
static void send_ctl(struct ibv_qp *qp, struct ibv_mr *ctl, const uint32_t *words, size_t n)
{
	uint32_t *msg = ctl_out(ctl);
	for (size_t i = 0; i < n; i++)
		msg[i] = htonl(words[i]);
	struct ibv_sge sge = { .addr = (uintptr_t)msg, .length = (uint32_t)(n * 4), .lkey = ctl->lkey };
	struct ibv_send_wr wr = { .wr_id = 3, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND };
	post_send_or_die(qp, &wr);
}

static void wait_for(struct ibv_cq *cq, enum ibv_wc_opcode op, struct ibv_wc *wc)
{
	if (wait_completion(cq, wc))
		exit(1);
	if (wc->opcode != op) {
		fprintf(stderr, "unexpected completion (opcode %d)\n", wc->opcode);
		exit(1);
	}
}

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void server(const struct config *c, struct ibv_qp *qp, struct ibv_cq *cq,
		   uint8_t *pool, struct ibv_mr *ctl, const uint32_t *used, size_t n_used)
{
	struct ibv_wc wc;
	uint32_t reply[1 + POOL_BLOCKS];
	size_t n = 0;

	wait_for(cq, IBV_WC_RECV, &wc);
	if (wc.byte_len != 4) {
		printf("a malformed request (%" PRIu32 " bytes)\n", wc.byte_len);
		exit(1);
	}
	uint32_t want = ntohl(ctl_in(ctl)[0]);
	for (uint32_t b = 0; b < POOL_BLOCKS && n < want; b++) {
		int busy = 0;
		for (size_t u = 0; u < n_used; u++)
			busy |= used[u] == b;
		if (!busy)
			reply[1 + n++] = b;
	}
	if (n < want) {
		printf("cannot reserve %" PRIu32 " blocks: only %zu are free\n", want, n);
		exit(1);
	}
	reply[0] = (uint32_t)n;
	print_blocks("server: reserved blocks", reply + 1, n);
	post_notice_recv(qp); /* before the reply: the notice may follow it at once */
	send_ctl(qp, ctl, reply, 1 + n);

	wait_for(cq, IBV_WC_RECV_RDMA_WITH_IMM, &wc);
	printf("server: notice arrived: %" PRIu32 " blocks written\n", ntohl(wc.imm_data));
	if (verify(c, pool, reply + 1, n))
		exit(1);
	printf("server: %zu blocks x %zu layers hold the request's bytes; no other block changed\n",
	       n, c->layers);
}

static void client(const struct config *c, struct ibv_qp *qp, struct ibv_cq *cq,
		   struct ibv_mr *mr, struct ibv_mr *ctl, const struct conn_info *peer,
		   const uint32_t *blocks, size_t n)
{
	static struct range r[MAX_RANGES];
	static struct ibv_sge sge[MAX_RANGES];
	static struct ibv_send_wr wr[MAX_RANGES + 1];
	uint32_t dst[POOL_BLOCKS], count = (uint32_t)n;
	struct ibv_wc wc;

	send_ctl(qp, ctl, &count, 1);
	wait_for(cq, IBV_WC_RECV, &wc);
	const uint32_t *msg = ctl_in(ctl);
	int bad = wc.byte_len != 4 * (1 + n) || ntohl(msg[0]) != n;
	for (size_t j = 0; j < n && !bad; j++)
		bad = (dst[j] = ntohl(msg[1 + j])) >= POOL_BLOCKS;
	if (bad) {
		printf("a malformed reply from the server\n");
		exit(1);
	}
	print_blocks("client: the server reserved blocks", dst, n);

	size_t pieces, ranges = build_ranges(c, blocks, dst, n, r, &pieces);
	printf("client: %zu layers x %zu blocks x 2 (K, V) = %zu pieces -> %zu WRITEs after merging\n",
	       c->layers, n, pieces, ranges);
	for (size_t i = 0; i < ranges && r[i].src < layer_tensor(c, 1).offset; i++)
		printf("  layer 0: %6" PRIu32 " bytes  pool +%-7" PRIu64 " -> peer +%" PRIu64 "\n",
		       r[i].len, r[i].src, r[i].dst);

	uint64_t bytes = 0;
	for (size_t i = 0; i < ranges; i++) {
		sge[i] = (struct ibv_sge){ .addr = (uintptr_t)mr->addr + r[i].src,
					   .length = r[i].len, .lkey = mr->lkey };
		wr[i] = (struct ibv_send_wr){
			.wr_id = i, .sg_list = &sge[i], .num_sge = 1, .next = &wr[i + 1],
			.opcode = IBV_WR_RDMA_WRITE, /* unsignalled */
			.wr.rdma = { .remote_addr = peer->addr + r[i].dst, .rkey = peer->rkey },
		};
		bytes += r[i].len;
	}
	/* RC executes WRITEs in order: the notice lands after all the data. */
	wr[ranges] = (struct ibv_send_wr){
		.wr_id = ranges, .num_sge = 0, .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
		.imm_data = htonl((uint32_t)n), .send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = peer->addr, .rkey = peer->rkey },
	};
	double start = now_us();
	post_send_or_die(qp, wr); /* one call for the whole list */
	wait_for(cq, IBV_WC_RDMA_WRITE, &wc);
	printf("client: %" PRIu64 " bytes in %zu WRITEs + 1 notice, completed in %.0f us (Soft-RoCE: software numbers)\n",
	       bytes, ranges, now_us() - start);
}

int main(int argc, char **argv)
{
	struct config c = { .kv_first = 0, .layers = 4, .tokens = 16 };
	uint32_t blocks[POOL_BLOCKS], used[POOL_BLOCKS];
	size_t n = parse_blocks("-b", "3,4,5,9,12", blocks), n_used = parse_blocks("-u", "2,5", used);
	const char *dev = NULL;
	int gid_arg = -1, port = COURSE_TCP_PORT, opt, bad = 0;

	while ((opt = getopt(argc, argv, "kL:t:b:u:d:g:p:")) != -1) {
		switch (opt) {
		case 'k': c.kv_first = 1; break;
		case 'L': c.layers = (size_t)number("-L", optarg, 1, MAX_LAYERS); break;
		case 't': c.tokens = (size_t)number("-t", optarg, 1, MAX_TOKENS); break;
		case 'b': bad |= !(n = parse_blocks("-b", optarg, blocks)); break;
		case 'u': n_used = parse_blocks("-u", optarg, used); break;
		case 'd': dev = optarg; break;
		case 'g': gid_arg = (int)number("-g", optarg, 0, UINT8_MAX); break;
		case 'p': port = (int)number("-p", optarg, 1, 65535); break;
		default: bad = 1; break;
		}
	}
	if (bad) {
		fprintf(stderr, "usage: %s [-k] [-L LAYERS<=%d] [-t TOKENS<=%d] [-b BLOCKS] [-u USED] "
			"[-d DEV] [-g GID] [-p PORT] [HOST]\n       (blocks are numbered 0 to %d)\n",
			argv[0], MAX_LAYERS, MAX_TOKENS, POOL_BLOCKS - 1);
		return 1;
	}
	const char *host = optind < argc ? argv[optind] : NULL;
	struct tensor last = layer_tensor(&c, c.layers);
	size_t pool_len = last.offset; /* where a further layer would start */

	printf("layout %s, %zu layers, %zu tokens per block: a K or V piece is %zu bytes\n",
	       c.kv_first ? "[2][blocks][tokens][heads][dim]" : "[blocks][2][tokens][heads][dim]",
	       c.layers, c.tokens, c.tokens * HEADS * HEAD_DIM * ELEM);

	struct ibv_context *ctx = open_device(dev);
	int gid_index = choose_gid(ctx, COURSE_IB_PORT, gid_arg);
	struct ibv_pd *pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	uint8_t *pool = alloc_buffer(pool_len);
	memset(pool, host ? 0x11 : FREE_BYTE, pool_len);
	if (host)
		fill_request(&c, pool, blocks, n);
	struct ibv_mr *mr = ibv_reg_mr(pd, pool, pool_len,
				       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!mr)
		die("ibv_reg_mr (pool)");
	size_t ctl_len = 2 * CTL_WORDS * sizeof(uint32_t);
	void *ctl_buf = alloc_buffer(ctl_len);
	struct ibv_mr *ctl = ibv_reg_mr(pd, ctl_buf, ctl_len, IBV_ACCESS_LOCAL_WRITE);
	if (!ctl)
		die("ibv_reg_mr (control)");
	struct ibv_cq *cq = ibv_create_cq(ctx, 8, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	struct ibv_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
		.cap = { .max_send_wr = MAX_RANGES + 2, .max_recv_wr = 2,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");

	qp_to_init(qp, COURSE_IB_PORT, IBV_ACCESS_REMOTE_WRITE);
	post_ctl_recv(qp, ctl); /* the request (server) or the reply (client) */
	struct conn_info me, peer;
	int sock = connect_qp(qp, COURSE_IB_PORT, gid_index, mr, host, port, &me, &peer);

	if (host) {
		print_blocks("client: the request's KV is in blocks", blocks, n);
		client(&c, qp, cq, mr, ctl, &peer, blocks, n);
	} else {
		server(&c, qp, cq, pool, ctl, used, n_used);
	}
	tcp_barrier(sock);
	printf("done\n");

	close(sock);
	release_all(qp, cq, mr, NULL, NULL);
	int rc = ibv_dereg_mr(ctl); /* the second region, before its PD */
	if (rc)
		die_rc("ibv_dereg_mr", rc);
	release_all(NULL, NULL, NULL, pd, ctx);
	free(ctl_buf);
	free(pool);
	return 0;
}
