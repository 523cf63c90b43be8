/* proto.h - commands between the recorder and its freestanding child. */
#ifndef REC_PROTO_H
#define REC_PROTO_H

#define REC_IMAGE 0x400000L
#define REC_IMAGE_SIZE 131072L
#define REC_STRMAX 256
#define REC_XBUF 16384
#define REC_ARG_STR  (-0x5354520001L) /* replaced by the child's string buffer */
#define REC_ARG_XBUF (-0x5354520002L) /* replaced by the child's buffer of 'x' */

enum rec_op {
	REC_SYSCALL = 1, /* nr(a[0..5]) -> ret */
	REC_TOUCH,       /* a0 addr, a1 len, a2 1=read 2=write -> aux = faults */
	REC_COPYMOVE,    /* a0 dst, a1 len: copy the image to dst, mremap it over the image */
	REC_FORK,        /* child replies (0, 0); parent replies after wait4 (ret, status) */
	REC_EXIT,        /* exit_group(a0) */
};

struct rec_cmd {
	long op, nr;
	long a[6];
	char str[REC_STRMAX];
};

struct rec_reply {
	long ret, aux, self, strbuf, xbuf;
};

#endif
