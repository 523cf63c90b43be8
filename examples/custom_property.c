/*
 * custom_property.c - checking a property of your own with libvmsim.
 *
 * The property: under 6.18, mlock2(MLOCK_ONFAULT) charges the whole range
 * to locked_vm at once, but only pages that are touched become mlocked
 * (the unevictable_pgs_mlocked counter grows by what was touched).  The
 * program drives the model with trace lines and checks both numbers after
 * each touch; it exits 0 when the property holds.
 *
 *   cc custom_property.c $(pkg-config --cflags --libs vmsim) -o custom_property
 */
#include <stdio.h>
#include <vmsim.h>

static int apply(struct vmsim *m, const char *line)
{
	struct vmsim_result r;
	char err[512];
	if (vmsim_apply(m, line, &r, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	if (!r.agrees) {
		fprintf(stderr, "%s: %s", line, r.text);
		return -1;
	}
	return 0;
}

static void on_event(void *ctx, const char *ev)
{
	(void)ctx;
	printf("model event: %s\n", ev);
}

int main(void)
{
	struct vmsim_config c = { "6.18", "x86_64", 0, true, 0 };
	char err[512];
	struct vmsim *m = vmsim_new(&c, err, sizeof(err));
	if (!m) {
		fprintf(stderr, "vmsim_new: %s\n", err);
		return 2;
	}
	vmsim_on_event(m, on_event, NULL);
	printf("libvmsim %s\n", vmsim_version());
	int bad = 0;
	if (apply(m, "mmap(0x7f0000000000, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED, -1, 0) = 0x7f0000000000") ||
	    apply(m, "mlock2(0x7f0000000000, 1048576, MLOCK_ONFAULT) = 0"))
		return 1;
	int64_t base = vmsim_counter(m, "unevictable_pgs_mlocked");
	for (int touched = 1; touched <= 8; touched++) {
		char line[128];
		snprintf(line, sizeof(line), "touch(%#llx, 4096, WRITE) = 1",
			 0x7f0000000000ULL + (unsigned long long)(touched - 1) * 65536);
		if (apply(m, line))
			return 1;
		uint64_t locked = vmsim_locked_pages(m, 0);
		int64_t mlocked = vmsim_counter(m, "unevictable_pgs_mlocked") - base;
		int ok = locked == 256 && mlocked == touched;
		printf("touched %d: locked_vm %llu pages, %lld pages mlocked: %s\n", touched,
		       (unsigned long long)locked, (long long)mlocked, ok ? "holds" : "BROKEN");
		bad += !ok;
	}
	vmsim_view(m, "status", 0, stdout);
	vmsim_free(m);
	return bad ? 1 : 0;
}
