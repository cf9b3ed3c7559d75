/*
 * list_devices.c - RDMA 101, lesson 1.4.
 *
 * Lists every RDMA device that libibverbs can see, opens each one, and prints
 * a few of its limits and the state of each of its ports. It sends nothing
 * and touches no other machine: it only asks the local device about itself.
 *
 * On a machine without an RDMA device (no NIC and no Soft-RoCE) it prints
 * "no RDMA device found" to stderr and exits with status 1.
 *
 * Build: gcc -std=c11 -Wall -Wextra -O2 list_devices.c -o list_devices -libverbs
 * Run:   ./list_devices        (no arguments)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <infiniband/verbs.h>

/*
 * A GUID arrives in network byte order (most significant byte first in
 * memory). Reading it byte by byte prints it the same way on any CPU, in the
 * xxxx:xxxx:xxxx:xxxx form that ibv_devinfo also uses.
 */
static void format_guid(__be64 guid, char out[20])
{
	uint8_t b[8];

	memcpy(b, &guid, sizeof(b));
	snprintf(out, 20, "%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
}

/* enum ibv_mtu is a code (IBV_MTU_256 = 1 ... IBV_MTU_4096 = 5), not bytes. */
static int mtu_bytes(enum ibv_mtu mtu)
{
	switch (mtu) {
	case IBV_MTU_256:  return 256;
	case IBV_MTU_512:  return 512;
	case IBV_MTU_1024: return 1024;
	case IBV_MTU_2048: return 2048;
	case IBV_MTU_4096: return 4096;
	}
	return 0; /* a value this program does not know */
}

/* The link layer tells InfiniBand ports from Ethernet (RoCE, iWARP) ones. */
static const char *link_layer_str(uint8_t link_layer)
{
	switch (link_layer) {
	case IBV_LINK_LAYER_INFINIBAND: return "InfiniBand";
	case IBV_LINK_LAYER_ETHERNET:   return "Ethernet";
	case IBV_LINK_LAYER_UNSPECIFIED: return "unspecified";
	}
	return "unknown";
}

/* Print the device-wide limits that later lessons run into. */
static void print_device_attr(const struct ibv_device_attr *a)
{
	char guid[20];

	format_guid(a->node_guid, guid);
	printf("  firmware        %s\n", a->fw_ver);
	printf("  node GUID       %s\n", guid);
	printf("  vendor          0x%" PRIx32 " part %" PRIu32 " hw %" PRIu32 "\n",
	       a->vendor_id, a->vendor_part_id, a->hw_ver);
	printf("  ports           %u\n", (unsigned)a->phys_port_cnt);
	printf("  max_qp          %d (work requests per queue: %d)\n",
	       a->max_qp, a->max_qp_wr);
	printf("  max_cq          %d (entries per CQ: %d)\n", a->max_cq, a->max_cqe);
	printf("  max_mr          %d (largest region: %" PRIu64 " bytes)\n",
	       a->max_mr, a->max_mr_size);
	printf("  max_pd          %d\n", a->max_pd);
	printf("  max_sge         %d\n", a->max_sge);
}

/*
 * Query one port and print it. Ports are numbered from 1, not 0.
 * Returns 0 on success, -1 if the query failed.
 */
static int print_port(struct ibv_context *ctx, uint8_t port)
{
	struct ibv_port_attr pa;

	/* ibv_query_port returns an errno value; it does not set errno. */
	int rc = ibv_query_port(ctx, port, &pa);
	if (rc) {
		fprintf(stderr, "  ibv_query_port(port %u) failed: %s\n",
			(unsigned)port, strerror(rc));
		return -1;
	}

	printf("  port %u\n", (unsigned)port);
	printf("    state         %s\n", ibv_port_state_str(pa.state));
	printf("    link layer    %s\n", link_layer_str(pa.link_layer));
	printf("    active MTU    %d bytes (max %d)\n",
	       mtu_bytes(pa.active_mtu), mtu_bytes(pa.max_mtu));
	/* A LID is assigned by the InfiniBand subnet manager; Ethernet ports have none. */
	if (pa.link_layer == IBV_LINK_LAYER_INFINIBAND)
		printf("    LID           0x%04" PRIx16 " (subnet manager at 0x%04" PRIx16 ")\n",
		       pa.lid, pa.sm_lid);
	else
		printf("    LID           none (not used on this link layer)\n");
	printf("    GID entries   %d\n", pa.gid_tbl_len);
	return 0;
}

/*
 * Open one device, print what it says about itself, and close it again.
 * Returns 0 on success, -1 on any failure (already reported on stderr).
 */
static int describe_device(struct ibv_device *dev)
{
	const char *name = ibv_get_device_name(dev);
	char guid[20];
	int failed = 0;

	if (!name)
		name = "(unnamed)";
	format_guid(ibv_get_device_guid(dev), guid);
	printf("%s\n", name);
	printf("  node type       %s\n", ibv_node_type_str(dev->node_type));
	printf("  GUID (list)     %s\n", guid);

	struct ibv_context *ctx = ibv_open_device(dev);
	if (!ctx) {
		fprintf(stderr, "  ibv_open_device(%s) failed: %s\n",
			name, strerror(errno));
		return -1;
	}

	/* The context itself says how many completion vectors (interrupts) there are. */
	printf("  comp. vectors   %d\n", ctx->num_comp_vectors);

	struct ibv_device_attr attr;
	int rc = ibv_query_device(ctx, &attr); /* returns an errno value */
	if (rc) {
		fprintf(stderr, "  ibv_query_device(%s) failed: %s\n",
			name, strerror(rc));
		failed = 1;
	} else {
		print_device_attr(&attr);
		for (unsigned p = 1; p <= attr.phys_port_cnt; p++)
			if (print_port(ctx, (uint8_t)p))
				failed = 1;
	}

	/* Nothing else was created on this context, so it can be closed now. */
	if (ibv_close_device(ctx)) { /* -1 on failure; errno is only a hint */
		fprintf(stderr, "  ibv_close_device(%s) failed: %s\n",
			name, strerror(errno));
		failed = 1;
	}
	return failed ? -1 : 0;
}

int main(void)
{
	int num = 0;

	/*
	 * NULL means the library could not even look (ENOSYS: no RDMA support in
	 * the kernel, or its RDMA modules cannot be loaded). A list with zero
	 * entries means it looked and found none.
	 */
	struct ibv_device **list = ibv_get_device_list(&num);
	if (!list) {
		fprintf(stderr, "no RDMA device found (ibv_get_device_list: %s)\n",
			strerror(errno));
		return 1;
	}
	if (num == 0) {
		fprintf(stderr, "no RDMA device found (the device list is empty)\n");
		ibv_free_device_list(list);
		return 1;
	}

	printf("%d RDMA device%s found\n\n", num, num == 1 ? "" : "s");
	int status = 0;
	for (int i = 0; i < num; i++) {
		if (describe_device(list[i]))
			status = 1;
		printf("\n");
	}

	/* Every device we opened is closed again, so the list can go. */
	ibv_free_device_list(list);
	return status;
}
